#!/usr/bin/env python3
"""Write a few valid seed inputs (little-endian doubles) to fuzz/corpus/<target>/."""
import os, struct, math
here = os.path.dirname(os.path.abspath(__file__))
def put(target, name, vals, tail=b""):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(struct.pack("<%dd" % len(vals), *vals) + tail)
c, s = math.cos(0.3), math.sin(0.3)
box = lambda x, y, z, q, h: [x, y, z] + q + h
I = [1.0, 0, 0, 0]; R = [c, s, 0, 0]; R2 = [c, 0, s * 0.6, s * 0.8]
rect = [0, 0, 0.2, 1, 0.5, 1.5, 0.2, 0.9, 1, 0.5]
put("collide", "face", box(0, 0, 0, I, [1, 1, 1]) + box(0, 0, 1.9, I, [1, 1, 1]) + rect + [0.01])
put("collide", "edge", box(0, 0, 0, R, [1, 0.5, 2]) + box(1.2, 0.3, 0, R2, [0.5, 1, 1]) + rect + [0.1])
put("collide", "apart", box(0, 0, 0, I, [1, 1, 1]) + box(5, 0, 0, R2, [1, 1, 1]) + rect + [0.0])
cub = lambda h, j, p, q: h + j + p + q
put("field", "aligned", cub([.005] * 3, [0, 0, 1.3], [0, 0, 0], I) + cub([.005] * 3, [0, 0, 1.3], [0, 0, .0101], I)
    + [.001, .002, .003, 0.5] + [0, 0, 0, 0, 0, 1, .01, 0, 0, 0, 1, 0, 0, .02, 0, 1, 0, 0])
put("field", "rotated", cub([.005, .003, .002], [1.3, 0, 0], [0, 0, 0], R) + cub([.004] * 3, [0, 1.3, 0], [.02, .001, 0], R2)
    + [.0, .0, .0051, -1] + [0, 0, 0, 1, 0, 0, 0, .01, 0, 0, 1, 0, .01, .01, .01, 0, 0, 1])
disc = lambda x, y, vx, vy, m, r: [x, y, vx, vy, m, r]
rot = lambda x, y, vx, vy, a, w, m, i, l, b: [x, y, vx, vy, a, w, m, i, l, b]
put("kinetics", "mixed", disc(.2, .2, 1, 0, 1, .02) + disc(.5, .21, -1, 0, 2, .03)
    + rot(.3, .6, 0, -1, .5, 10, 1, .001, .05, .01) + rot(.7, .6, 0, 1, 0, -5, 1, .001, .05, .01)
    + [0.9, 1.0, 1.0, 1.0, 0.01], bytes([0x3d]))
put("kinetics", "walls", disc(.2, .5, 3, 0, 1, .05) + disc(.8, .5, -3, 0, 1, .05)
    + rot(.5, .2, 1, 1, 0, 1, 2, .01, .1, .02) + rot(.5, .8, -1, 1, 1, 1, 2, .01, .1, .02)
    + [1.0, 0.5, 1.0, 1.0, 0.01], bytes([0x3e]))
mag = lambda h, m, mo, p, v, q, w: h + [m] + mo + p + v + q + w
put("world", "pair", mag([.005] * 3, .006, [0, 0, .1], [0, 0, 0], [0, 0, 0], I, [0, 0, 0])
    + mag([.005] * 3, .006, [0, 0, .1], [0, 0, .015], [0, 0, -.1], I, [0, 0, 0])
    + mag([.005] * 3, .006, [.1, 0, 0], [.03, 0, 0], [0, 0, 0], R, [0, 0, 1]) + [0.8, 0.2, 0.002], bytes([0x03]))
put("world", "fixed", mag([.01, .005, .005], .01, [.2, 0, 0], [0, 0, 0], [0, 0, 0], I, [0, 0, 0])
    + mag([.005] * 3, .006, [.1, 0, 0], [.025, 0, 0], [-.5, 0, 0], R2, [1, 0, 0])
    + mag([.005] * 3, .006, [0, .1, 0], [0, .03, 0], [0, 0, 0], I, [0, 0, 0]) + [0.5, 0.0, 0.003], bytes([0x16]))
# byte-driven targets: a count, flags, two restitutions or coefficients, then bytes a body
def put_bytes(target, name, b):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(b))
# gas: 12 discs and 2 rotors, periodic, e = 0.5 (pair), 1 (wall), t_end byte
put_bytes("gas", "mixed", [12, 2, 1, 128, 255, 100] + [(37 * k + 11) % 256 for k in range(6 * 14)])
# gas: 20 discs in a box with walls, e = 0.9
put_bytes("gas", "walls", [20, 0, 0, 230, 230, 200] + [(53 * k + 7) % 256 for k in range(6 * 20)])
# pile: 6 magnets over the plate, e 0.3, mu 0.5
put_bytes("pile", "plate", [4, 1, 77, 128] + [(29 * k + 3) % 256 for k in range(8 * 6)])
# pile: 3 magnets in free space, extended cuboid model
put_bytes("pile", "cuboid", [1, 2, 77, 128] + [(61 * k + 5) % 256 for k in range(8 * 3)])
