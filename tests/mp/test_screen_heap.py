# Runs only on the MicroPython unix port: no character is interned in the heap when first
# drawn, and once warmed up, drawing any screen allocates nothing.
import sys

import framebuf
import micropython

sys.path.append("host_sim/portable")  # the runner starts in the repo root
import screen_cases

from bobing import screen as scr


def test_a_character_drawn_the_first_time_interns_nothing():
    # iterating a str makes each character a qstr; frozen (the bowl's route), glyphs.INTERNED has
    # them all in flash, so none is interned in the heap mid-game, in a new qstr pool. (Loaded as
    # .mpy, the PSRAM boards' route, its constants are str objects: characters intern when first drawn.)
    from bobing import glyphs, paint
    if glyphs.__file__ != "bobing/glyphs.py":
        return  # not frozen (a frozen module's __file__ has no folder)
    micropython.heap_lock()
    try:
        w = paint.Painter.text_width(glyphs.CHARS)  # every glyph's character, none drawn before
    finally:
        micropython.heap_unlock()
    assert w == sum(glyphs.WIDTHS)


def test_drawing_every_screen_allocates_nothing():
    buf = bytearray(1024)
    s = scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    for _, lang, method, args in screen_cases.CASES:  # warm up
        s.set_lang(lang)
        screen_cases.draw(s, method, args)
    bad = []
    for name, lang, method, args in screen_cases.CASES:
        if [p for p in screen_cases.DRAWN_PER_KEY if name.startswith(p)]:
            continue  # (drawn once per key press: screen_cases.DRAWN_PER_KEY)
        s.set_lang(lang)
        micropython.heap_lock()
        try:
            screen_cases.draw(s, method, args)
        except MemoryError:
            bad.append(name)
        finally:
            micropython.heap_unlock()
    assert not bad, "these screens allocate: %s" % ", ".join(bad)


def test_animation_frames_allocate_nothing():
    buf = bytearray(1024)
    s = scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    t, _ = screen_cases.table(first=7)
    s.shaking(t, 0)
    micropython.heap_lock()
    try:
        for f in range(200):
            s.shaking(t, f)
    finally:
        micropython.heap_unlock()
