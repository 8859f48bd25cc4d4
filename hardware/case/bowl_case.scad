// The bowl's electronics case (hardware/bom.md item 15): a base and a lid, printed in
// PETG, that lock the kiosk's parts in. Parametric: every part size below is the one
// bom.md gives (tests/test_case.py renders this file and measures the holes against
// bom.md and the pin map). `make case` renders build/case/bowl_case.stl (both parts laid
// out to print) and build/case/bowl_case.png (assembled).
//
// What a customer can reach with the case shut: the OLED behind its window, the LED ring
// behind a 0.8 mm diffuser skin (no hole), the three buttons (each fills its square
// hole), the key switch's lock (item 12a) and the charging socket (power only: item 16,
// its data wires cut); under the case, the speaker's grille. The FireBeetle's USB-C and RESET button are inside, under solid lid
// and walls: reaching them means taking out the four M3 pin-in Torx screws of the lid
// (item 17), a tool a customer does not carry. The tether lug takes a steel cable to the
// kiosk's table.
//
// Coordinates: mm; x along the width, y the depth, z up; the base's outer corner at 0.

part = "print";  // "print": base and lid side by side (the STL); "assembly": the lid on (the PNG)
$fn = 48;

// --- part sizes (bom.md) -------------------------------------------------------------
oled_active = [21.74, 10.86];  // item 3: the 0.96" SSD1306's active area
oled_module = [27.3, 27.8];    // item 3: the module's board
ring_od = 37;                  // item 4: NeoPixel Ring 12, outer diameter
ring_id = 23;                  // item 4: inner diameter
button = [12, 12];             // item 5: B3F-4055 body
battery = [50, 34, 6];         // item 6: LP603450 (length, width, thickness)
board = [60, 25.4];            // item 1: FireBeetle 2 ESP32-E (DFR0654) board outline
key_d = 22.5;                  // item 12a: the keylock's panel cut-out
key_depth = 40;                // item 12a: its body behind the panel, at most
charge_cut = [12.4, 6.6];      // item 16: a USB-C plug's overmold (12.35 x 6.5 max, USB Type-C spec)
tether_d = 6.5;                // item 18: a 5 mm steel security cable's eye
screw_clear = 3.4;             // item 17: M3 clearance
screw_pilot = 2.5;             // item 17: M3 into the printed boss (or a heat-set insert's hole)
speaker_d = 40;                // item 20: the speaker's frame

// --- the case ------------------------------------------------------------------------
size = [120, 90, 36];  // the base's outside (the lid adds lid_t on top)
wall = 3;              // the key switch's front ring clamps panels of 1 to 6 mm
floor_t = 2.4;
lid_t = 3;
skin = 0.8;            // the diffuser over the ring: light through, no hole
fit = 0.4;             // clearance around each part

oled_at = [32, 62];     // window centre (lid, top view)
ring_at = [88, 62];     // ring centre
buttons_at = [[40, 22], [60, 22], [80, 22]];  // MENU, NEXT, OK (firmware/board.py)
board_at = [52, 6];     // the board's corner; its USB-C and RESET end is at x + board[0]
usb_end = 12;           // mm of the board at that end: USB-C and RESET
battery_at = [60, 40];  // the bay's inner corner
key_at = [0, 62, 20];   // the key switch: left wall, y, z of its centre
charge_at = [120, 18, 14];  // the charging socket: right wall, y, z
tether_at = [60, 90];   // the lug on the back wall, centred on x
screws_at = [[6, 6], [114, 6], [6, 84], [114, 84]];
// the speaker lies face down on the floor, in a seat, over a grille: the sound leaves under the case,
// which stands on four rubber feet (item 21); the left front corner is the one free of the board,
// the battery and the key switch's body
speaker_at = [26, 26];
grille_d = 30;          // holes only under the cone, inside the frame's 5 mm rim
grille_slot = 2;        // a slot's width: no finger and no coin goes through
grille_pitch = 4;       // slot to slot
grille_slots = 3;       // slots each side of the middle one
seat_h = 3;             // the seat's wall above the floor (the speaker is glued into it)

assert(norm(speaker_at - screws_at[0]) >= (speaker_d + 2 * fit) / 2 + 1.6 + 4.5
       && speaker_at[0] + (speaker_d + 2 * fit) / 2 + 1.6 <= board_at[0]
       && speaker_at[1] + (speaker_d + 2 * fit) / 2 + 1.6 <= key_at[1] - key_d / 2,
       "the speaker's seat runs into a screw boss, the board or the key switch");

// the keylock's body goes key_depth in behind the left wall: nothing else stands there
assert(min(battery_at[0] - 1.6, board_at[0]) >= wall + key_depth,
       "the key switch's body needs key_depth clear behind the left wall");

module rounded_box(s, r = 4) {
    hull() for (x = [r, s[0] - r], y = [r, s[1] - r]) translate([x, y, 0]) cylinder(r = r, h = s[2]);
}

module base() {
    difference() {
        union() {
            difference() {
                rounded_box(size);
                translate([wall, wall, floor_t]) rounded_box([size[0] - 2 * wall, size[1] - 2 * wall, size[2]], 2);
            }
            for (p = screws_at) translate([p[0], p[1], 0]) cylinder(d = 9, h = size[2]);  // lid screw bosses
            // the battery bay's walls (the cell lies flat on the floor)
            translate([battery_at[0] - 1.6, battery_at[1] - 1.6, 0])
                difference() {
                    cube([battery[0] + 2 * fit + 3.2, battery[1] + 2 * fit + 3.2, floor_t + battery[2] + 2]);
                    translate([1.6, 1.6, floor_t]) cube([battery[0] + 2 * fit, battery[1] + 2 * fit, 20]);
                }
            // the board's standoffs
            for (dx = [3, board[0] - 3], dy = [3, board[1] - 3])
                translate([board_at[0] + dx, board_at[1] + dy, 0]) cylinder(d = 5, h = floor_t + 4);
            // the tether lug, outside the back wall
            translate([tether_at[0] - 10, tether_at[1] - 2, 0]) cube([20, 12, 14]);
            // the speaker's seat
            translate([speaker_at[0], speaker_at[1], 0])
                difference() {
                    cylinder(d = speaker_d + 2 * fit + 3.2, h = floor_t + seat_h);
                    translate([0, 0, floor_t]) cylinder(d = speaker_d + 2 * fit, h = seat_h + 1);
                }
        }
        // the grille: slots through the floor, under the cone only (round holes took openscad's
        // CGAL render from 7 to 50 s here; slots 6 s)
        for (k = [-grille_slots:grille_slots]) {
            y = k * grille_pitch;
            half = sqrt(pow(grille_d / 2, 2) - pow(abs(y) + grille_slot / 2, 2));
            translate([speaker_at[0] - half, speaker_at[1] + y - grille_slot / 2, -1]) cube([2 * half, grille_slot, floor_t + 2]);
        }
        for (p = screws_at) translate([p[0], p[1], floor_t]) cylinder(d = screw_pilot, h = size[2]);
        translate([key_at[0] - 1, key_at[1], key_at[2]]) rotate([0, 90, 0]) cylinder(d = key_d + fit / 2, h = wall + 2);
        translate([charge_at[0] - wall - 1, charge_at[1] - charge_cut[0] / 2, charge_at[2] - charge_cut[1] / 2])
            cube([wall + 2, charge_cut[0], charge_cut[1]]);
        translate([tether_at[0] - 11, tether_at[1] + 5, 7]) rotate([0, 90, 0]) cylinder(d = tether_d, h = 22);
    }
}

module lid() {
    difference() {
        translate([0, 0, size[2]]) rounded_box([size[0], size[1], lid_t]);
        translate([oled_at[0] - oled_active[0] / 2 - 1, oled_at[1] - oled_active[1] / 2 - 1, size[2] - 1])
            cube([oled_active[0] + 2, oled_active[1] + 2, lid_t + 2]);  // the window (a 1 mm border of glass)
        translate([ring_at[0], ring_at[1], size[2] + skin])  // thinned to a skin over the ring's LEDs
            difference() {
                cylinder(d = ring_od - 1, h = lid_t);
                translate([0, 0, -1]) cylinder(d = ring_id + 1, h = lid_t + 2);
            }
        for (b = buttons_at)
            translate([b[0] - (button[0] + fit) / 2, b[1] - (button[1] + fit) / 2, size[2] - 1])
                cube([button[0] + fit, button[1] + fit, lid_t + 2]);
        for (p = screws_at) translate([p[0], p[1], size[2] - 1]) cylinder(d = screw_clear, h = lid_t + 2);
    }
}

if (part == "assembly") {
    color("SteelBlue") base();
    color("LightGray", 0.9) lid();
} else if (part == "print") {
    base();
    translate([0, -size[1] - 10, size[2] + lid_t]) rotate([180, 0, 0]) translate([0, -size[1], 0]) lid();
}
