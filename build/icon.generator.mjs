// Draws the app icon (build/icon.png, 1024x1024 RGBA) from code, so the repository needs no
// binary design asset and no download: `node build/icon.generator.mjs`. electron-builder derives
// the .ico and .icns from this PNG. Replace it with the designers' artwork when there is one.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 1024;
const output = path.join(path.dirname(fileURLToPath(import.meta.url)), 'icon.png');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distances (negative inside), in pixels.
function roundedRect(x, y, cx, cy, halfW, halfH, radius) {
  const qx = Math.abs(x - cx) - halfW + radius;
  const qy = Math.abs(y - cy) - halfH + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function circle(x, y, cx, cy, r) {
  return Math.hypot(x - cx, y - cy) - r;
}

function triangle(x, y, [ax, ay], [bx, by], [cx, cy]) {
  // Inside when on the same side of all three edges; distance approximated by the nearest edge.
  const edge = (px, py, qx, qy) => ((qx - px) * (y - py) - (qy - py) * (x - px)) / Math.hypot(qx - px, qy - py);
  const d = [edge(ax, ay, bx, by), edge(bx, by, cx, cy), edge(cx, cy, ax, ay)];
  return -Math.min(...d);
}

const coverage = (distance) => Math.min(1, Math.max(0, 0.5 - distance));

const rgba = Buffer.alloc(SIZE * SIZE * 4);
const top = [0x2b, 0x8a, 0xf0];
const bottom = [0x0b, 0x4f, 0xb3];
const white = [0xff, 0xff, 0xff];

for (let y = 0; y < SIZE; y += 1) {
  for (let x = 0; x < SIZE; x += 1) {
    const px = x + 0.5;
    const py = y + 0.5;
    const t = y / (SIZE - 1);
    const background = top.map((c, i) => c + (bottom[i] - c) * t);

    const tile = coverage(roundedRect(px, py, 512, 512, 440, 440, 200));
    const bubbleBody = roundedRect(px, py, 512, 470, 270, 200, 110);
    const bubbleTail = triangle(px, py, [330, 600], [440, 640], [300, 790]);
    const bubble = coverage(Math.min(bubbleBody, bubbleTail));
    const dots = coverage(Math.min(circle(px, py, 402, 470, 42), circle(px, py, 512, 470, 42), circle(px, py, 622, 470, 42)));

    const ink = bubble * (1 - dots);
    const colour = background.map((c, i) => c * (1 - ink) + white[i] * ink);
    const offset = (y * SIZE + x) * 4;
    rgba[offset] = Math.round(colour[0]);
    rgba[offset + 1] = Math.round(colour[1]);
    rgba[offset + 2] = Math.round(colour[2]);
    rgba[offset + 3] = Math.round(255 * tile);
  }
}

writeFileSync(output, encodePng(SIZE, SIZE, rgba));
stdout.write(`wrote ${output}\n`);
