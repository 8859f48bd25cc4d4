"""A bar chart as inline SVG, drawn on the server: no JavaScript, no build step."""
from django.utils.html import escape

W, H = 480, 200  # viewBox; the page scales it to the screen's width
_LEFT, _BOTTOM, _TOP = 28, 22, 14


def bars(values, title):
    """values[i] = the bar at hour i (0..23) -> SVG markup (safe to embed)."""
    n = len(values)
    top = max(max(values), 1)
    if top > 1 and top % 2:
        top += 1  # whole prizes on the axis: 0, top/2 and top are all whole (1 prize showed 0.5)
    plot_w = W - _LEFT - 4
    plot_h = H - _BOTTOM - _TOP
    bw = plot_w / n
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s" '
           'class="chart">' % (W, H, escape(title)), "<title>%s</title>" % escape(title)]
    for tick in sorted({0, top // 2, top}):
        y = _TOP + plot_h * (1 - tick / top)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ccc"/>' % (_LEFT, W - 4, y, y))
        out.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end" class="tick">%d</text>'
                   % (_LEFT - 3, y + 3, tick))
    for i, v in enumerate(values):
        h = plot_h * v / top
        x = _LEFT + i * bw
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#c0392b"><title>%02d:00 %d</title>'
                   '</rect>' % (x + 1, _TOP + plot_h - h, bw - 2, h, i, v))
        if i % 3 == 0:
            out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%02d</text>'
                       % (x + bw / 2, H - 6, i))
    out.append("</svg>")
    return "".join(out)
