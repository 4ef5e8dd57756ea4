// Draws the kernel logo (a magnifier over a grid) as the PNGs Jupyter's launcher shows.
// Run once when the design changes: node scripts/make-logo.js
'use strict';
const { writeFileSync } = require('node:fs');
const { deflateSync } = require('node:zlib');

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (const byte of buf) {
    c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function pixel(x, y) {
  // Unit square coordinates; supersampled by the caller.
  const ring = Math.hypot(x - 0.42, y - 0.42);
  const onRing = ring > 0.22 && ring < 0.3;
  const along = (x + y) / 2,
    across = Math.abs(x - y);
  const onHandle = along > 0.62 && along < 0.9 && across < 0.08;
  const inLens = ring <= 0.22;
  const gridLine =
    inLens &&
    (Math.abs(((x - 0.2) * 10) % 1) < 0.18 ||
      Math.abs(((y - 0.2) * 10) % 1) < 0.18);
  if (onRing || onHandle) {
    return [0x1e, 0x5a, 0xa8, 255];
  }
  if (gridLine) {
    return [0xf0, 0x9a, 0x1a, 255];
  }
  if (inLens) {
    return [0xff, 0xf4, 0xe0, 255];
  }
  return [0, 0, 0, 0];
}

function png(size) {
  const rows = [];
  const ss = 4;
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let i = 0; i < ss; i++) {
        for (let j = 0; j < ss; j++) {
          const p = pixel(
            (x + (i + 0.5) / ss) / size,
            (y + (j + 0.5) / ss) / size
          );
          for (let k = 0; k < 3; k++) {
            acc[k] += p[k] * p[3];
          }
          acc[3] += p[3];
        }
      }
      const a = acc[3] / (ss * ss);
      row.push(
        ...(acc[3]
          ? acc.slice(0, 3).map(v => Math.round(v / acc[3]))
          : [0, 0, 0]),
        Math.round(a)
      );
    }
    rows.push(Buffer.from(row));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6; // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0))
  ]);
}

for (const size of [32, 64]) {
  writeFileSync(`kernel/logo/logo-${size}x${size}.png`, png(size));
}
writeFileSync(
  'kernel/logo/logo-svg.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <circle cx="42" cy="42" r="22" fill="#fff4e0"/>
  <path d="M28 30h28M28 40h28M28 50h28M32 24v36M42 24v36M52 24v36" stroke="#f09a1a" stroke-width="2.5"/>
  <circle cx="42" cy="42" r="26" fill="none" stroke="#1e5aa8" stroke-width="8"/>
  <path d="M62 62l22 22" stroke="#1e5aa8" stroke-width="11" stroke-linecap="round"/>
</svg>
`
);
