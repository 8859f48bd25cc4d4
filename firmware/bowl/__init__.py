# Device glue: drivers and the app; only firmware/board.py knows pin numbers.
