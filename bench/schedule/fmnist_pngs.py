# The first N Fashion-MNIST training images as 28×28 grey PNGs (the image-folder reader resizes).
import gzip, os, struct, sys, zlib
import numpy as np
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with gzip.open(src) as f:
    _, count, h, w = struct.unpack('>IIII', f.read(16))
    images = np.frombuffer(f.read(n * h * w), np.uint8).reshape(n, h, w)
os.makedirs(out, exist_ok=True)
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
for i, img in enumerate(images):
    rows = b''.join(b'\0' + img[y].tobytes() for y in range(h))
    data = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
    open(os.path.join(out, 'img%05d.png' % i), 'wb').write(data)
