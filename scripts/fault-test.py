#!/usr/bin/env python3
"""Fault test: the distributed product under a load of tracking lookups and admin writes while
the shipments, auth and notifications services, one of two gateway replicas, Redis and
SecantusDB are, in turn, killed (SIGKILL) and restarted.

What must hold, and what makes the exit status non-zero:
  - the public pages (/, /track, /track/<number>) answer 200 all along;
  - every failed call carries one of the product's friendly messages;
  - each part recovers within RECOVERY_LIMIT (5 s) of being back (its port accepting
    connections again): tracking lookups and admin writes succeed again from then on;
  - no call hangs: each answers (success or error) within MAX_CALL_SECONDS (5), since a
    lookup that waits out the outage is no better than a failed one;
  - no acknowledged write (grpc-status 0) is lost: each is read back at the end;
  - no signed-in admin is signed out: the sessions live in Redis, which runs with append-only
    persistence, and are shared by both gateways (the admin signs in on the second gateway and
    writes through the first; while the second is down the first answers every call);
  - every e-mail reaches the e-mail API exactly once, the one being sent when notifications
    was killed included: a local EmailJS-compatible API takes 0.5 s per e-mail and, like a mail
    server that had not answered yet, drops an e-mail whose sender hung up before its answer.

It starts every process itself (like scripts/run-distributed.sh, on free ports, in a temporary
folder) so that it can kill -9 and restart each one; SecantusDB restarts on the same storage
folder. Python 3 standard library only; gRPC-web is spoken over HTTP/1.1 with hand-made protobuf.

  scripts/fault-test.py                       # binaries from target/debug
  BIN_DIR=target/release scripts/fault-test.py
  make fault-test                             # release binaries; `make test` runs it on debug ones

Settings (environment): BIN_DIR (target/debug), STATIC_DIR (frontend/dist), SECANTUSD
(.tools/secantus/bin/secantusd-py), REDIS_SERVER (redis-server), OUTAGE_SECONDS (5),
BASELINE_SECONDS (3), RECOVERY_LIMIT (5), MAX_CALL_SECONDS (5), SECANTUS_ARGS (extra secantusd-py options, default
--sync-on-commit: see below), RECOVERY_WAIT (30: how long to wait for a recovery
before giving up), LOOKUP_THREADS (2), KEEP=1 (keep the temporary folder with every log).
"""

import base64
import collections
import http.client
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from ports import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def env_path(name, default):
    value = os.environ.get(name) or default
    return value if os.path.isabs(value) else os.path.join(os.getcwd(), value)


BIN_DIR = env_path("BIN_DIR", os.path.join(ROOT, "target/debug"))
STATIC_DIR = env_path("STATIC_DIR", os.path.join(ROOT, "frontend/dist"))
SECANTUSD = env_path("SECANTUSD", os.path.join(ROOT, ".tools/secantus/bin/secantusd-py"))
REDIS_SERVER = os.environ.get("REDIS_SERVER", "redis-server")
OUTAGE = float(os.environ.get("OUTAGE_SECONDS", "5"))
BASELINE = float(os.environ.get("BASELINE_SECONDS", "3"))
RECOVERY_LIMIT = float(os.environ.get("RECOVERY_LIMIT", "5"))
RECOVERY_WAIT = float(os.environ.get("RECOVERY_WAIT", "30"))
MAX_CALL = float(os.environ.get("MAX_CALL_SECONDS", "5"))
SETTLE = 3.0  # after a recovery, ops must keep succeeding this long
LOOKUP_THREADS = int(os.environ.get("LOOKUP_THREADS", "2"))
ADMIN_EMAIL = "fault-admin@example.com"
ADMIN_PASSWORD = "fault-Test-Passw0rd-2026"
EMAIL_DELAY = 0.5  # how long the local e-mail API takes per e-mail

# The product's messages for a failure a visitor or admin may see (gateway and services).
FRIENDLY = {
    (14, "The service is unavailable. Please try again shortly."),
    (14, "The shipment store is unavailable. Please try again."),
    (14, "Sign-in is unavailable right now. Please try again shortly."),
    (16, "Please sign in."),  # the session was in the Redis that restarted empty
}
CODE_NAMES = {0: "OK", 1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED",
              5: "NOT_FOUND", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", 13: "INTERNAL",
              14: "UNAVAILABLE", 16: "UNAUTHENTICATED"}


def log(msg):
    print(f"[fault-test {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- protobuf, by hand ---------------------------------------------------------------------

def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_str(field, value):
    data = value.encode() if isinstance(value, str) else value
    return varint(field << 3 | 2) + varint(len(data)) + data


def f_int(field, value):
    return varint(field << 3) + varint(value)


def f_double(field, value):
    import struct
    return varint(field << 3 | 1) + struct.pack("<d", value)


def decode(data):
    """Fields of one message: {field: [values]} (bytes for length-delimited, ints otherwise)."""
    fields = collections.defaultdict(list)
    i = 0
    while i < len(data):
        key, i = read_varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = read_varint(data, i)
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            length, i = read_varint(data, i)
            value, i = data[i:i + length], i + length
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wire}")
        fields[field].append(value)
    return fields


def read_varint(data, i):
    shift = result = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


def text(fields, field):
    values = fields.get(field)
    return values[0].decode() if values else ""


# --- gRPC-web over HTTP/1.1 ----------------------------------------------------------------

class Reply:
    def __init__(self, code, message, body=b"", cookie=None, http_status=200):
        self.code, self.message, self.body, self.cookie = code, message, body, cookie
        self.http_status = http_status

    @property
    def ok(self):
        return self.code == 0

    def describe(self):
        if self.code is None:
            return self.message
        return f"{CODE_NAMES.get(self.code, self.code)}: {self.message}"

    def friendly(self):
        return (self.code, self.message) in FRIENDLY


class Gateway:
    def __init__(self, port):
        self.port = port
        self.host = f"127.0.0.1:{port}"

    def call(self, method, message, cookie=None, timeout=20):
        headers = {
            "Content-Type": "application/grpc-web+proto",
            "Accept": "application/grpc-web+proto",
            "X-Grpc-Web": "1",
            "Origin": f"http://{self.host}",
        }
        if cookie:
            headers["Cookie"] = cookie
        frame = b"\x00" + len(message).to_bytes(4, "big") + message
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", method, body=frame, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
            set_cookie = None
            for name, value in resp.getheaders():
                if name.lower() == "set-cookie" and value.startswith("session="):
                    set_cookie = value.split(";", 1)[0]
            if resp.status != 200:
                return Reply(None, f"HTTP {resp.status}", http_status=resp.status)
            trailers = {k.lower(): v for k, v in resp.getheaders()}
            payload = b""
            i = 0
            while i + 5 <= len(body):
                flag, length = body[i], int.from_bytes(body[i + 1:i + 5], "big")
                chunk = body[i + 5:i + 5 + length]
                i += 5 + length
                if flag & 0x80:
                    for line in chunk.decode(errors="replace").split("\r\n"):
                        if ":" in line:
                            k, v = line.split(":", 1)
                            trailers[k.strip().lower()] = v.strip()
                else:
                    payload += chunk
            if "grpc-status" not in trailers:
                return Reply(None, "no grpc-status in the answer")
            code = int(trailers["grpc-status"])
            msg = urllib.parse.unquote(trailers.get("grpc-message", ""))
            return Reply(code, msg, payload, set_cookie)
        except (OSError, http.client.HTTPException) as e:
            return Reply(None, f"HTTP failure: {type(e).__name__}: {e}")
        finally:
            conn.close()

    def page(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            resp.read()
            return resp.status
        except (OSError, http.client.HTTPException) as e:
            return f"{type(e).__name__}: {e}"
        finally:
            conn.close()

    # The API calls the test makes.
    def sign_in(self):
        return self.call("/logistics.v1.SessionService/CreateSession",
                         f_str(1, ADMIN_EMAIL) + f_str(2, ADMIN_PASSWORD))

    def lookup(self, tracking_number):
        return self.call("/logistics.v1.ShipmentService/GetShipmentByTrackingNumber",
                         f_str(1, tracking_number))

    def get(self, shipment_id, cookie):
        return self.call("/logistics.v1.ShipmentService/GetShipment", f_str(1, shipment_id), cookie)

    def update_tracking(self, shipment_id, remarks, cookie, status=2):
        message = f_str(1, shipment_id) + f_int(2, status) + f_str(3, "Fault Test Hub") + f_str(4, remarks)
        return self.call("/logistics.v1.ShipmentService/UpdateShipmentTracking", message, cookie)

    def create(self, product, cookie):
        party = lambda name, email: (f_str(1, name) + f_str(2, "1 Test Street, Testville")
                                     + f_str(3, "+1 555 0100") + f_str(4, email))
        date = f_int(1, 2030) + f_int(2, 6) + f_int(3, 15)
        tod = f_int(1, 10) + f_int(2, 30)
        package = (f_int(1, 1) + f_str(2, "Box") + f_str(3, "Fault test parcel") + f_double(4, 10.0)
                   + f_double(5, 10.0) + f_double(6, 10.0) + f_double(7, 1.0))
        shipment = (f_str(4, party("Fault Shipper", "shipper@example.com"))
                    + f_str(5, party("Fault Receiver", "receiver@example.com"))
                    + f_str(6, "Origin City") + f_str(7, "Destination City") + f_str(8, "Test Carrier")
                    + f_int(9, 1) + f_int(10, 1) + f_int(11, 1) + f_str(12, product) + f_int(13, 1)
                    + f_int(14, 1) + f_int(15, 1000) + f_double(16, 1.0) + f_str(17, date)
                    + f_str(18, tod) + f_str(19, date) + f_str(20, tod) + f_str(21, package))
        return self.call("/logistics.v1.ShipmentService/CreateShipment", f_str(1, shipment), cookie)


# --- a local e-mail API ---------------------------------------------------------------------

class EmailApi:
    """POST /api/v1.0/email/send, as EmailJS: each e-mail is kept once answered. An e-mail whose
    sender hung up before the answer is dropped, as a mail server drops a message whose client
    went away before the server accepted it."""

    def __init__(self):
        import http.server
        import json
        import select
        api = self
        self.lock = threading.Lock()
        self.delivered = []  # request bodies, in order
        self.in_flight = 0
        self.started = 0
        self.dropped = []  # request bodies whose sender hung up

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with api.lock:
                    api.in_flight += 1
                    api.started += 1
                try:
                    time.sleep(EMAIL_DELAY)
                    # The sender is gone when its side of the connection reads as closed (or reset).
                    readable, _, _ = select.select([self.connection], [], [], 0)
                    try:
                        gone = bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
                    except OSError:
                        gone = True
                    if gone:
                        with api.lock:
                            api.dropped.append(body)
                        self.close_connection = True
                        return
                    json.loads(body)
                    with api.lock:
                        api.delivered.append(body)
                    self.send_response(200)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"OK")
                finally:
                    with api.lock:
                        api.in_flight -= 1

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def busy(self):
        with self.lock:
            return self.in_flight > 0

    def wait_for_a_new_email(self, timeout):
        """Returns once an e-mail has just arrived (it is answered EMAIL_DELAY later); False if
        none came within `timeout`."""
        with self.lock:
            seen = self.started
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.started != seen:
                    return True
            time.sleep(0.002)
        return False

    def bodies(self):
        with self.lock:
            return list(self.delivered)


# --- processes -----------------------------------------------------------------------------

def port_open(port):
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
        return True
    except OSError:
        return False


class Proc:
    def __init__(self, name, argv, env, port, logdir):
        self.name, self.argv, self.env, self.port = name, argv, env, port
        self.logfile = os.path.join(logdir, f"{name}.log")
        self.popen = None

    def start(self):
        out = open(self.logfile, "ab")
        out.write(f"\n===== start {time.strftime('%H:%M:%S')} =====\n".encode())
        out.flush()
        self.popen = subprocess.Popen(self.argv, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL)
        out.close()

    def wait_port(self, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.popen.returncode}); see {self.logfile}")
            if port_open(self.port):
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not listen on {self.port} within {timeout}s; see {self.logfile}")

    def kill(self):
        if self.popen and self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()

    def stop(self):
        if self.popen and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


# --- the load ------------------------------------------------------------------------------

class Op:
    __slots__ = ("kind", "what", "start", "end", "reply")

    def __init__(self, kind, what, start, end, reply):
        self.kind, self.what, self.start, self.end, self.reply = kind, what, start, end, reply


class Load:
    def __init__(self, gw, sign_in_gw, tracking_numbers, shipment_ids):
        self.gw = gw
        self.sign_in_gw = sign_in_gw
        self.tracking_numbers = tracking_numbers
        self.shipment_ids = shipment_ids
        self.ops = []
        self.pages = []  # (time, path, status)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.acked_updates = []  # (shipment id, remarks, time acknowledged)
        self.acked_creates = []  # (tracking number, product, time acknowledged)
        self.cookie = None
        self.sessions_lost = 0

    def record(self, kind, what, start, reply):
        with self.lock:
            self.ops.append(Op(kind, what, start, time.monotonic(), reply))

    def lookups(self):
        rng = random.Random()
        while not self.stop.is_set():
            number = rng.choice(self.tracking_numbers)
            start = time.monotonic()
            reply = self.gw.lookup(number)
            if reply.ok and text(decode(reply.body), 2) != number:
                reply = Reply(None, "the answer is another shipment")
            self.record("lookup", "GetShipmentByTrackingNumber", start, reply)
            time.sleep(0.02)

    def writes(self):
        seq = 0
        while not self.stop.is_set():
            if self.cookie is None:
                start = time.monotonic()
                reply = self.sign_in_gw.sign_in()
                self.record("admin", "CreateSession", start, reply)
                if reply.ok and reply.cookie:
                    self.cookie = reply.cookie
                else:
                    time.sleep(0.1)
                    continue
            seq += 1
            start = time.monotonic()
            if seq % 5 == 0:
                product = f"fault-create-{seq}"
                reply = self.gw.create(product, self.cookie)
                what = "CreateShipment"
                if reply.ok:
                    fields = decode(reply.body)
                    with self.lock:
                        self.acked_creates.append((text(fields, 1), text(fields, 2), product, time.monotonic()))
            else:
                shipment_id = self.shipment_ids[seq % len(self.shipment_ids)]
                remarks = f"fault-update-{seq}"
                reply = self.gw.update_tracking(shipment_id, remarks, self.cookie)
                what = "UpdateShipmentTracking"
                if reply.ok:
                    with self.lock:
                        self.acked_updates.append((shipment_id, remarks, time.monotonic()))
            self.record("admin", what, start, reply)
            if reply.code == 16:  # the session is gone: sign in again
                self.cookie = None
                self.sessions_lost += 1
            time.sleep(0.1)

    def page_checks(self):
        paths = ["/", "/track", f"/track/{self.tracking_numbers[0]}"]
        i = 0
        while not self.stop.is_set():
            path = paths[i % len(paths)]
            i += 1
            status = self.gw.page(path)
            with self.lock:
                self.pages.append((time.monotonic(), path, status))
            time.sleep(0.1)

    def run(self):
        targets = [self.lookups] * LOOKUP_THREADS + [self.writes, self.page_checks]
        self.threads = [threading.Thread(target=t, daemon=True) for t in targets]
        for t in self.threads:
            t.start()

    def halt(self):
        self.stop.set()
        for t in self.threads:
            t.join(30)

    def ops_between(self, t0, t1, kind=None):
        with self.lock:
            return [o for o in self.ops if t0 <= o.start < t1 and (kind is None or o.kind == kind)]

    def recovered_at(self, kind, since):
        """When the answers of `kind` came back: the end of the first op (ending after `since`)
        from which every op ending later succeeded, provided one of them was a write for
        `admin`; None if not (yet). A call that hangs through the outage and only answers
        later counts as recovered only when it answers."""
        with self.lock:
            ops = sorted((o for o in self.ops if o.end >= since and o.kind == kind), key=lambda o: o.end)
        at = None
        wrote = False
        for o in ops:
            if o.reply.ok:
                if at is None:
                    at, wrote = o.end, False
                wrote = wrote or o.what != "CreateSession"
            else:
                at = None
        if at is None or (kind == "admin" and not wrote):
            return None
        return at


# --- the test ------------------------------------------------------------------------------

def main():
    for b in ("gateway", "shipments", "auth", "notifications", "preferences"):
        if not os.access(os.path.join(BIN_DIR, b), os.X_OK):
            sys.exit(f"missing {BIN_DIR}/{b}: cargo build -p gateway -p shipments -p auth -p notifications -p preferences (or set BIN_DIR)")
    if not os.access(SECANTUSD, os.X_OK):
        sys.exit(f"SecantusDB is missing at {SECANTUSD}: run 'make tools'")
    if shutil.which(REDIS_SERVER) is None:
        sys.exit("redis-server is missing: apt-get install -y redis-server")

    work = tempfile.mkdtemp(prefix="pse-fault-")
    logdir = os.path.join(work, "logs")
    os.makedirs(logdir)
    os.makedirs(os.path.join(work, "mongo"))
    ports = {name: free_port() for name in
             ("redis", "mongo", "shipments", "auth", "notifications", "preferences", "gateway",
              "gateway2")}
    email_api = EmailApi()
    os.makedirs(os.path.join(work, "redis"))
    key = base64.b64encode(os.urandom(32)).decode()
    base = dict(os.environ)
    for name in ("MONGODB_URI", "REDIS_URL", "DATA_DIR", "METRICS_ADDR"):
        base.pop(name, None)
    base.update({
        "JWT_SIGNING_KEY": key,
        "MONGODB_URI": f"mongodb://127.0.0.1:{ports['mongo']}",
        "MONGODB_DATABASE": "faulttest",
        "METRICS_ADDR": "off",
        "NO_COLOR": "1",
        "RUST_LOG": os.environ.get("RUST_LOG", "info"),
        "EMAILJS_BASE_URL": f"http://127.0.0.1:{email_api.port}",
        "EMAILJS_PUBLIC_KEY": "fault-public-key",
        "EMAILJS_SERVICE_ID": "fault-service",
        "EMAILJS_SHIPPER_TEMPLATE_ID": "fault-shipper",
        "EMAILJS_RECEIVER_TEMPLATE_ID": "fault-receiver",
        "EMAILJS_UPDATE_TEMPLATE_ID": "fault-update",
        "CONTACT_EMAILJS_PUBLIC_KEY": "fault-contact-key",
        "CONTACT_EMAILJS_SERVICE_ID": "fault-contact",
        "CONTACT_EMAILJS_TEMPLATE_ID": "fault-contact-template",
        # A killed worker's e-mail is taken up again after this lease.
        "NOTIFY_LEASE_MS": "3000",
        # One sender: the kill lands while the API holds its answer to that one e-mail. With
        # several, others answered a moment before the kill go out again after it (at least
        # once; their Idempotency-Key lets an API that honours it drop the second copy).
        "NOTIFY_CONCURRENCY": "1",
    })
    svc_env = lambda name, **extra: {**base, f"{name.upper()}_ADDR": f"127.0.0.1:{ports[name]}", **extra}
    def gateway_env(port):
        return {
            **base,
            "PORT": str(port),
            "STATIC_DIR": STATIC_DIR,
            "SHIPMENTS_URL": f"http://127.0.0.1:{ports['shipments']}",
            "AUTH_URL": f"http://127.0.0.1:{ports['auth']}",
            "NOTIFICATIONS_URL": f"http://127.0.0.1:{ports['notifications']}",
            "PREFERENCES_URL": f"http://127.0.0.1:{ports['preferences']}",
            "REDIS_URL": f"redis://127.0.0.1:{ports['redis']}",
            "TRACKING_RATE_LIMIT_PER_MINUTE": "1000000",
            "LOGIN_RATE_LIMIT_PER_MINUTE": "1000000",
        }

    procs = {
        # Append-only persistence, as in the distributed mode: a restart keeps the sessions.
        "redis": Proc("redis", [REDIS_SERVER, "--port", str(ports["redis"]), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
                                "--dir", os.path.join(work, "redis")], base, ports["redis"], logdir),
        # With the transaction lifetime deploy/README.md asks of a MongoDB (scripts/secantusd.py):
        # a service killed mid-write locks that shipment for 5 s, not a minute.
        "secantusdb": Proc("secantusdb", [os.path.join(os.path.dirname(SECANTUSD), "python3"),
                                          os.path.join(ROOT, "scripts/secantusd.py"),
                                          "--host", "127.0.0.1", "--port", str(ports["mongo"]),
                                          "--storage-path", os.path.join(work, "mongo"),
                                          # The product commits with w:majority, j:true; SecantusDB honours
                                          # j:true for single writes but not for transaction commits (measured:
                                          # a shipment acknowledged 20 ms before kill -9 was lost), so it is
                                          # run the way a durable MongoDB behaves.
                                          *os.environ.get("SECANTUS_ARGS", "--sync-on-commit").split()], base,
                           ports["mongo"], logdir),
        "shipments": Proc("shipments", [os.path.join(BIN_DIR, "shipments")], svc_env("shipments"),
                          ports["shipments"], logdir),
        "auth": Proc("auth", [os.path.join(BIN_DIR, "auth")],
                     svc_env("auth", ADMIN_EMAIL=ADMIN_EMAIL, ADMIN_PASSWORD=ADMIN_PASSWORD),
                     ports["auth"], logdir),
        "notifications": Proc("notifications", [os.path.join(BIN_DIR, "notifications")],
                              svc_env("notifications"), ports["notifications"], logdir),
        "preferences": Proc("preferences", [os.path.join(BIN_DIR, "preferences")],
                            svc_env("preferences"), ports["preferences"], logdir),
        "gateway": Proc("gateway", [os.path.join(BIN_DIR, "gateway")], gateway_env(ports["gateway"]),
                        ports["gateway"], logdir),
        "gateway2": Proc("gateway2", [os.path.join(BIN_DIR, "gateway")], gateway_env(ports["gateway2"]),
                         ports["gateway2"], logdir),
    }
    order = ["redis", "secantusdb", "shipments", "auth", "notifications", "preferences", "gateway",
             "gateway2"]
    failed = True
    load = None

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        log(f"starting the product in {work} (binaries from {BIN_DIR})")
        for name in order:
            procs[name].start()
            procs[name].wait_port()
        gw = Gateway(ports["gateway"])
        gw2 = Gateway(ports["gateway2"])
        deadline = time.monotonic() + 60
        while gw.page("/healthz") != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("the gateway's /healthz did not answer 200")
            time.sleep(0.1)

        # Some shipments to look up and to update.
        session = gw.sign_in()
        if not session.ok or not session.cookie:
            raise RuntimeError(f"sign-in failed: {session.describe()}")
        tracking_numbers, shipment_ids = [], []
        for i in range(5):
            reply = gw.create(f"fault-seed-{i}", session.cookie)
            if not reply.ok:
                raise RuntimeError(f"CreateShipment failed: {reply.describe()}")
            fields = decode(reply.body)
            shipment_ids.append(text(fields, 1))
            tracking_numbers.append(text(fields, 2))
        log(f"seeded shipments {', '.join(tracking_numbers)}")

        load = Load(gw, gw2, tracking_numbers, shipment_ids)
        load.run()
        results = []
        t_base = time.monotonic()
        time.sleep(BASELINE)
        baseline_errors = [o for o in load.ops_between(t_base, time.monotonic()) if not o.reply.ok]
        log(f"baseline: {len(load.ops_between(t_base, time.monotonic()))} calls, {len(baseline_errors)} errors")

        in_flight_email = None
        for part in ("shipments", "auth", "notifications", "gateway2", "redis", "secantusdb"):
            proc = procs[part]
            if part == "notifications":
                # Just after an e-mail reached the API, well before its answer.
                in_flight_email = email_api.wait_for_a_new_email(30)
            log(f"{part}: kill -9")
            t_kill = time.monotonic()
            proc.kill()
            time.sleep(OUTAGE)
            log(f"{part}: restart")
            t_restart = time.monotonic()
            proc.start()
            proc.wait_port()
            t_ready = time.monotonic()
            log(f"{part}: listening again after {t_ready - t_restart:.2f}s")
            # Wait until lookups and admin writes have recovered and stayed so for SETTLE seconds.
            deadline = t_ready + RECOVERY_WAIT
            while time.monotonic() < deadline:
                rec = [load.recovered_at(k, t_ready) for k in ("lookup", "admin")]
                if all(r is not None and time.monotonic() - r >= SETTLE for r in rec):
                    break
                time.sleep(0.2)
            t_end = time.monotonic()
            rec_lookup = load.recovered_at("lookup", t_ready)
            rec_admin = load.recovered_at("admin", t_ready)
            outage_ops = load.ops_between(t_kill, t_end)
            with load.lock:
                pages = [p for p in load.pages if t_kill <= p[0] < t_end]
            results.append({
                "part": part,
                "startup": t_ready - t_restart,
                "lookups": [o for o in outage_ops if o.kind == "lookup"],
                "admin": [o for o in outage_ops if o.kind == "admin"],
                "rec_lookup": None if rec_lookup is None else max(0.0, rec_lookup - t_ready),
                "rec_admin": None if rec_admin is None else max(0.0, rec_admin - t_ready),
                "pages": pages,
                "window": t_end - t_kill,
                "t_kill": t_kill,
                "t_end": t_end,
            })
            log(f"{part}: lookups recovered after {fmt(results[-1]['rec_lookup'])}, "
                f"admin writes after {fmt(results[-1]['rec_admin'])}")

        load.halt()

        # The e-mails: every one queued reaches the API once the outbox is drained.
        deadline = time.monotonic() + 60
        delivered = email_api.bodies()
        while time.monotonic() < deadline:
            time.sleep(EMAIL_DELAY * 4 + 3.5)  # a lease and a few sends
            now = email_api.bodies()
            if len(now) == len(delivered) and not email_api.busy():
                break
            delivered = now
        duplicates = [b for b, n in collections.Counter(delivered).items() if n > 1]

        # Read back every acknowledged write.
        cookie = None
        for _ in range(50):
            reply = gw.sign_in()
            if reply.ok and reply.cookie:
                cookie = reply.cookie
                break
            time.sleep(0.2)
        if cookie is None:
            raise RuntimeError("cannot sign in to verify the writes")
        lost = []
        history = {}
        for shipment_id in shipment_ids:
            reply = gw.get(shipment_id, cookie)
            if not reply.ok:
                raise RuntimeError(f"GetShipment {shipment_id}: {reply.describe()}")
            history[shipment_id] = {text(decode(h), 7) for h in decode(reply.body).get(24, [])}
        def when(t):
            later = [r for r in results if r["t_kill"] > t]
            if later:
                return f"{later[0]['t_kill'] - t:.2f}s before {later[0]['part']} was killed"
            return f"{t - results[-1]['t_kill']:.2f}s after {results[-1]['part']} was killed"

        for shipment_id, remarks, t in load.acked_updates:
            if remarks not in history[shipment_id]:
                lost.append(f"UpdateShipmentTracking {remarks} on {shipment_id}, acknowledged {when(t)}")
        for shipment_id, number, product, t in load.acked_creates:
            reply = gw.get(shipment_id, cookie)
            if not reply.ok or text(decode(reply.body), 12) != product:
                lost.append(f"CreateShipment {product} ({number}), acknowledged {when(t)}: {reply.describe()}")
        acked = len(load.acked_updates) + len(load.acked_creates)

        # The admin signed in on the second gateway before any fault is still signed in there.
        # (A gateway's first Redis call after Redis restarted fails: a user would try again.)
        still_signed_in = False
        for _ in range(10):
            if load.cookie and gw2.get(shipment_ids[0], load.cookie).ok:
                still_signed_in = True
                break
            time.sleep(0.2)
        problems = email_and_session_problems(load, still_signed_in, in_flight_email, email_api,
                                              delivered, duplicates, results)
        failed = report(results, baseline_errors, acked, lost, load, problems)
    except KeyboardInterrupt:
        log("interrupted")
    except Exception as e:  # noqa: BLE001 - report and clean up
        log(f"ERROR: {e}")
    finally:
        if load is not None:
            load.stop.set()
        for name in reversed(order):
            procs[name].stop()
        if failed or os.environ.get("KEEP"):
            log(f"logs kept in {logdir}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


def email_and_session_problems(load, still_signed_in, in_flight_email, email_api, delivered,
                               duplicates, results):
    """Prints what became of the e-mails and sessions; the problems."""
    problems = []
    creates = len(load.acked_creates)
    print(f"E-mails: {len(delivered)} reached the API, {len(email_api.dropped)} dropped because their "
          f"sender was killed before the answer, {len(duplicates)} sent more than once")
    if not in_flight_email:
        problems.append("no e-mail was on its way when notifications was killed")
    elif not email_api.dropped:
        problems.append("the e-mail on its way when notifications was killed was not cut off: "
                        "the kill missed it")
    for body in email_api.dropped:
        times = delivered.count(body)
        if times != 1:
            problems.append(f"an e-mail cut off by the kill reached the API {times} times after the "
                            f"restart: {body[:120]!r}")
    if duplicates:
        problems.append(f"{len(duplicates)} e-mails reached the API more than once")
        for body in duplicates[:3]:
            print(f"  more than once: {body[:200]!r}")
    # Each new shipment sends its shipper and receiver e-mails: those of every acknowledged one.
    shipper = sum(1 for b in delivered if b'"template_id":"fault-shipper"' in b)
    if shipper < creates:
        problems.append(f"{shipper} shipper e-mails for {creates} acknowledged new shipments")
    print(f"Sessions: {load.sessions_lost} lost; the admin signed in on gateway2 is "
          f"{'still' if still_signed_in else 'no longer'} signed in there")
    if load.sessions_lost:
        problems.append(f"{load.sessions_lost} times the admin was signed out (sessions lost)")
    if not still_signed_in:
        problems.append("the admin's session from gateway2 did not survive")
    second = next((r for r in results if r["part"] == "gateway2"), None)
    if second:
        errors = [o for o in second["lookups"] + second["admin"] if not o.reply.ok]
        if errors:
            problems.append(f"gateway2 down: the other gateway failed {len(errors)} calls")
    return problems


def fmt(seconds):
    return "not recovered" if seconds is None else f"{seconds:.2f}s"


def slowest(ops):
    return f"{max(o.end - o.start for o in ops):.2f}s" if ops else "-"


def summarize(ops):
    errors = collections.Counter(o.reply.describe() for o in ops if not o.reply.ok)
    return errors


def report(results, baseline_errors, acked, lost, load, problems):
    print()
    print(f"Fault test: outage {OUTAGE:.0f}s per part, recovery limit {RECOVERY_LIMIT:.0f}s after the part "
          f"listens again, {LOOKUP_THREADS} lookup threads, 1 admin writer, pages /, /track, /track/<n>")
    print()
    header = ("part", "calls", "lookup err", "admin err", "unfriendly", "page fails", "slowest lookup",
              "slowest admin", "part up in", "lookups back", "writes back")
    rows = [header]
    for r in results:
        lookups, admin = r["lookups"] or [], r["admin"]
        bad_lookups = [o for o in lookups if not o.reply.ok]
        bad_admin = [o for o in admin if not o.reply.ok]
        unfriendly = [o for o in bad_lookups + bad_admin if not o.reply.friendly()]
        page_fails = [p for p in r["pages"] if p[2] != 200]
        rows.append((r["part"], str(len(lookups) + len(admin)), f"{len(bad_lookups)}/{len(lookups)}",
                     f"{len(bad_admin)}/{len(admin)}", str(len(unfriendly)), f"{len(page_fails)}/{len(r['pages'])}",
                     slowest(lookups), slowest(admin),
                     f"{r['startup']:.2f}s", fmt(r["rec_lookup"]), fmt(r["rec_admin"])))
        r["unfriendly"], r["page_fails"] = unfriendly, page_fails
        for what, rec in (("lookups", r["rec_lookup"]), ("admin writes", r["rec_admin"])):
            if rec is None or rec > RECOVERY_LIMIT:
                problems.append(f"{r['part']}: {what} recovered after {fmt(rec)} (limit {RECOVERY_LIMIT:.0f}s)")
        if unfriendly:
            problems.append(f"{r['part']}: {len(unfriendly)} errors without a friendly message")
        if page_fails:
            problems.append(f"{r['part']}: {len(page_fails)} page loads failed")
        hung = [o for o in lookups + admin if o.end - o.start > MAX_CALL]
        if hung:
            problems.append(f"{r['part']}: {len(hung)} calls took longer than {MAX_CALL:.0f}s "
                            f"(slowest {max(o.end - o.start for o in hung):.2f}s)")
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for i, row in enumerate(rows):
        print("  " + "  ".join(cell.ljust(widths[j]) for j, cell in enumerate(row)))
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))
    print()
    print("  Calls started from the kill until the part had recovered and stayed so for "
          f"{SETTLE:.0f}s. 'part up in': from the restart\n  until its port accepted connections; "
          "'back': from then until the first answer after which every answer succeeded.")
    print()
    for r in results:
        print(f"Errors while {r['part']} was down or recovering:")
        counts = summarize((r["lookups"] or []) + r["admin"])
        if not counts:
            print("  none")
        for message, n in counts.most_common():
            print(f"  {n:5d}  {message}")
        for o in r["unfriendly"][:5]:
            print(f"  unfriendly: {o.what}: {o.reply.describe()}")
        for p in r["page_fails"][:5]:
            print(f"  page {p[1]}: {p[2]}")
    if baseline_errors:
        problems.append(f"baseline: {len(baseline_errors)} errors before any fault")
        for message, n in summarize(baseline_errors).most_common():
            print(f"  baseline error {n}x: {message}")
    print()
    print(f"Acknowledged writes: {acked} ({len(load.acked_updates)} tracking updates, "
          f"{len(load.acked_creates)} new shipments); sessions lost (signed in again): {load.sessions_lost}")
    print(f"Writes lost: {len(lost)}")
    for item in lost[:20]:
        print(f"  lost: {item}")
    if lost:
        problems.append(f"{len(lost)} acknowledged writes lost")
    print()
    if problems:
        print("FAIL:")
        for p in problems:
            print(f"  - {p}")
    else:
        print("PASS")
    return bool(problems)


if __name__ == "__main__":
    main()
