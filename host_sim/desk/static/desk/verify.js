// The customer's own check, in his phone: MicroPython's WebAssembly port (mpwasm/, the npm
// package @micropython/micropython-webassembly-pyscript 1.27.0) runs the bowl's own
// bobing/dice.py, served by the desk unchanged, over the turn this page carries: the
// secret must lead to the chain's anchor, and every roll must be the derivation's.
import { loadMicroPython } from "./mpwasm/micropython.mjs";

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
    why = "没有链锚点 no chain anchor"
elif saved and saved.get("anchor") != t["anchor"]:
    why = "锚点与您保存的不同 the anchor is not the one you saved"
elif saved and saved.get("u") != t.get("u_seed"):
    why = "您的种子没有被使用 your seed was not the one used"
elif not t.get("s"):
    why = "秘密从未公开 never revealed"
elif not dice.chain_holds(h(t["s"]), p, h(t["anchor"])):
    why = "秘密不在链上 the secret is not the chain's"
elif t.get("unseeded") or not t.get("d"):
    why = "没有奖台随机数 played without the desk's value"
else:
    der = dice.Derived(h(t["s"]), h(t["d"]), t["g"], t["k"], h(t["u_seed"]) if t.get("u_seed") else bytes(16))
    i = 0
    for x in t["r"]:
        if x == "-":
            continue
        f = der.roll(i, bytearray(6))
        i += 1
        if "".join(str(c) for c in f) != x:
            why = "第 %d 次摇骰不符 roll %d does not match" % (i, i)
            break
        n += 1
print(json.dumps({"ok": why is None, "why": why, "n": n, "trusted": not t.get("u_seed")}))
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
  const t0 = performance.now();
  const src = await (await fetch(t.dice_url)).text();
  const out = [];
  const mp = await loadMicroPython({ url: t.wasm_url, stdout: (line) => out.push(line) });
  mp.FS.mkdir("/bobing");
  mp.FS.writeFile("/bobing/__init__.py", "");
  mp.FS.writeFile("/bobing/dice.py", src);
  mp.FS.writeFile("/turn.json", JSON.stringify(t));
  mp.runPython(CHECK);
  const v = JSON.parse(out[out.length - 1]);
  el.dataset.ms = Math.round(performance.now() - t0);
  if (v.ok) {
    say(el, "success", "已验证（在您的手机上）：" + v.n + " 次摇骰都由碗的承诺和奖台的随机数算出。",
        "Verified (in your phone): all " + v.n + " rolls follow from the bowl's commitment and the desk's value.");
  } else {
    say(el, "error", "未验证（在您的手机上）：" + v.why, "Not verified (in your phone): " + v.why);
  }
  if (v.ok && v.trusted) {
    document.getElementById("trusted").hidden = false;
  }
}

main().catch((e) => say(document.getElementById("verdict"), "error", "无法在手机上验证：" + e,
                        "Cannot verify in this phone: " + e));
