# micropython: -X heapsize=320K
# The app on its asyncio tasks and the real clock (CPython and the unix port;
# in its own process there, apart from the long e2e game of test_bowl_e2e).

from bobing import console as C
from bowlrun import Stream, hal, new_root


def test_asyncio_tasks_on_real_time():
    # the same app on its asyncio tasks and the real clock: samples flow, a
    # button press opens the menu, frames are shown, the watchdog is fed
    import asyncio

    from bowl import app as bowl_app
    board = hal.SimBoard(new_root("rt"), realtime=True)
    app = bowl_app.App(board, Stream(9))
    menu = board.pins[0]

    async def presser():
        await asyncio.sleep(0.3)
        menu.value(0)
        await asyncio.sleep(0.1)
        menu.value(1)

    async def main():
        asyncio.create_task(presser())
        await app.run(stop_after_ms=1200)

    asyncio.run(main())
    assert app.con.view == C.V_MENU and app.con.arg[0] == "main"
    assert board.chip.samples_read > 50, board.chip.samples_read
    assert board.wdt.feeds >= 1 and board.disp.shows >= 2 and board.ring.writes > 10
