// The customer's own check, in his phone: MicroPython's WebAssembly port (mpwasm/, the npm
// package @micropython/micropython-webassembly-pyscript 1.27.0) runs the bowl's own
// bobing/dice.py, profiles.py, rules.py and game.py, served by the desk unchanged, over the
// turn this page carries: the secret must lead to the chain's anchor, every roll must be
// the derivation's, and the awards the desk holds must be the ones the game's rules and
// his stock give those rolls (game.turn_awards: the bowl's own award logic).
import { loadMicroPython } from "./mpwasm/micropython.mjs";

// Each reason is [Chinese, English]: the page says it Chinese first, English beside.
const CHECK = `
import json, binascii
from bobing import dice
t = json.load(open("/turn.json"))
h = binascii.unhexlify
why = None
n = 0
a, p = dice.chain_place(t["k"])
saved = t.get("saved")
if not t.get("anchor"):
    why = ["没有链锚点", "no chain anchor"]
elif saved and saved.get("anchor") != t["anchor"]:
    why = ["锚点与您保存的不同", "the anchor is not the one you saved"]
elif saved and saved.get("u") != t.get("u_seed"):
    why = ["您的种子没有被使用", "your seed was not the one used"]
elif t.get("kept") and t.get("receipt") != t["kept"]:
    why = ["您保存的收据已不在兑奖台的日志里（日志被删改过）",
           "the receipt your phone kept is no longer in the desk's log (it was changed or cut)"]
elif not t.get("s"):
    why = ["秘密从未公开", "never revealed"]
elif not dice.chain_holds(h(t["s"]), p, h(t["anchor"])):
    why = ["秘密不在链上", "the secret is not the chain's"]
elif t.get("unseeded") or not t.get("d"):
    why = ["没有兑奖台随机数", "played without the desk's value"]
else:
    der = dice.Derived(h(t["s"]), h(t["d"]), t["g"], t["k"], h(t["u_seed"]) if t.get("u_seed") else bytes(16))
    i = 0
    for x in t["r"]:
        if x == "-":
            continue
        f = der.roll(i, bytearray(6))
        i += 1
        if "".join(str(c) for c in f) != x:
            why = ["第 %d 次摇骰不符" % i, "roll %d does not match" % i]
            break
        n += 1
paid = None
if why is None:
    if not t.get("pf") or t.get("l") is None:
        why = ["兑奖台没有这一局的规则和库存，奖品无法重算", "no rules or stock at the desk: the awards cannot be replayed"]
    else:
        from bobing import game
        if "-" in t["r"] and game.profile_of(t["pf"]).options["spill_detect"] == "off":
            why = ["这一局的规则不检测出界，却有出界", "a spill in a game whose rules detect none"]
        try:
            paid = [c for w in game.turn_awards(t["pf"], t["l"], t["r"]) for c in w]
        except ValueError as e:
            why = ["按这一局的规则无法重算", "the game's rules cannot replay it: %s" % e]
        zh = {c[0]: c[1] for c in game.profile_of(t["pf"]).prizes["classes"]}
        if why is None and paid is not None and paid != t["awards"]:
            why = ["奖品与规则不符：规则给%s，兑奖台记的是%s" % (
                "、".join([zh.get(c, c) for c in paid]) or "无", "、".join([zh.get(c, c) for c in t["awards"]]) or "无"),
                   "awards not the rules': the rules pay %s, the desk holds %s" % (
                       " ".join(paid) or "nothing", " ".join(t["awards"]) or "nothing")]
print(json.dumps({"ok": why is None, "why": why, "n": n, "paid": paid, "trusted": not t.get("u_seed"),
                  "paid_zh": [zh[c] for c in paid] if why is None else None}))
`;

function say(el, cls, zh, en) {
  el.className = "msg " + cls;
  el.textContent = "";
  el.append(zh, document.createElement("br"), en);
}

async function main() {
  const el = document.getElementById("verdict");
  const t = JSON.parse(document.getElementById("turn").textContent);
  const key = "bobing:" + t.bowl + ":" + t.g + ":" + t.k;
  t.saved = JSON.parse(localStorage.getItem(key) || "null");
  // his receipt (his reveal's log entry and head), kept the first time: a later visit holds the log to it
  t.kept = JSON.parse(localStorage.getItem(key + ":receipt") || "null");
  if (!t.kept && t.receipt) {
    localStorage.setItem(key + ":receipt", JSON.stringify(t.receipt));
  }
  const t0 = performance.now();
  const out = [];
  const mp = await loadMicroPython({ url: t.wasm_url, stdout: (line) => out.push(line) });
  mp.FS.mkdir("/bobing");
  mp.FS.writeFile("/bobing/__init__.py", "");
  for (const [name, url] of Object.entries(t.fw)) {
    mp.FS.writeFile("/bobing/" + name + ".py", await (await fetch(url)).text());
  }
  mp.FS.writeFile("/turn.json", JSON.stringify(t));
  mp.runPython(CHECK);
  const v = JSON.parse(out[out.length - 1]);
  el.dataset.ms = Math.round(performance.now() - t0);
  if (v.ok) {
    const zh = v.paid.length ? "，奖品" + v.paid_zh.join("、") + "正是规则所给" : "，按规则没有奖品";
    const en = v.paid.length ? "; the awards " + v.paid.join(" ") + " are the rules'" : "; by the rules nothing paid";
    say(el, "success", "已验证（在您的手机上）：" + v.n + " 次摇骰都由碗的承诺和兑奖台的随机数算出" + zh + "。",
        "Verified (in your phone): all " + v.n + " rolls follow from the bowl's commitment and the desk's value" +
        en + ".");
  } else {
    say(el, "error", "未验证（在您的手机上）：" + v.why[0], "Not verified (in your phone): " + v.why[1]);
  }
  el.dataset.done = v.ok ? "ok" : "no";
  if (v.ok && v.trusted) {
    document.getElementById("trusted").hidden = false;
  }
  keep(t).catch(() => {});  // (without it the page still checks, only not offline)
}

// A service worker (/V/sw.js) answers from this cache when the network is gone: the page
// and everything its check runs are put there now, so a saved copy checks again offline.
async function keep(t) {
  if (!("serviceWorker" in navigator) || !window.caches) {
    return;
  }
  await navigator.serviceWorker.register("/V/sw.js", { scope: "/V/" });
  const c = await caches.open("bobing-verify-v1");
  await c.addAll([location.href, import.meta.url, new URL("./mpwasm/micropython.mjs", import.meta.url).href,
                  t.wasm_url].concat(Object.values(t.fw)));
  document.getElementById("verdict").dataset.kept = "1";
}

main().catch((e) => {
  const el = document.getElementById("verdict");
  say(el, "error", "无法在手机上验证：" + e, "Cannot verify in this phone: " + e);
  el.dataset.done = "error";
});
