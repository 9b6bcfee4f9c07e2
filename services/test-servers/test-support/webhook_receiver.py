"""A webhook receiver for tests: verifies each delivery's Standard Webhooks signature the way
the README tells a receiver to, records it, and answers as its mode file says.

    webhook_receiver.py PORT DIR

DIR/secrets holds the signing secrets to check against (one per line), DIR/mode one of:
ok (204), fail (503), retry-after (429 with Retry-After: 7), gone (410), slow (answers after
30 s), huge (200 with a 50 MB body), redirect (302 to the metadata address). Each request is
written to DIR/received/NNNNNN.json.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


# The README's example, word for word.
def verify(secret: str, headers, body: bytes, tolerance: int = 300) -> bool:
    msg_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance:
        return False  # too old or from the future: a replay
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(
        hmac.compare_digest(expected, signature.split(",", 1)[1])
        for signature in headers["webhook-signature"].split()
        if signature.startswith("v1,")
    )


PORT, DIR = int(sys.argv[1]), sys.argv[2]
RECEIVED = os.path.join(DIR, "received")
os.makedirs(RECEIVED, exist_ok=True)


def read(name, default=""):
    try:
        with open(os.path.join(DIR, name)) as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        secrets = [s for s in read("secrets").splitlines() if s]
        record = {
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "verified_with": [i for i, s in enumerate(secrets) if verify(s, self.headers, body)],
            "body": json.loads(body or b"null"),
            "raw": body.decode("utf-8", "replace"),
        }
        name = f"{time.time_ns():020d}.json"
        with open(os.path.join(RECEIVED, name + ".tmp"), "w") as f:
            json.dump(record, f)
        os.rename(os.path.join(RECEIVED, name + ".tmp"), os.path.join(RECEIVED, name))
        mode = read("mode", "ok")
        if mode == "slow":
            time.sleep(30)
        if mode == "huge":
            self.send_response(200)
            self.send_header("content-length", str(50 * 1024 * 1024))
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(800):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        status, headers = {
            "fail": (503, {}),
            "retry-after": (429, {"retry-after": "7"}),
            "gone": (410, {}),
            "redirect": (302, {"location": "http://169.254.169.254/latest/meta-data/"}),
        }.get(mode, (204, {}))
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        reply = b"" if status == 204 else f"answer {status}".encode()
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print("READY", flush=True)
server.serve_forever()
