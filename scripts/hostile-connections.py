#!/usr/bin/env python3
"""Hostile clients against a running gateway, for `make bench`: prints one line of numbers.

CONNECTIONS sockets (default 1000) are opened and held for SECONDS (default 15): a third send
half a request line, a third a POST head and then a byte of body now and then, a third one
complete request and then nothing (an idle keep-alive). Meanwhile /healthz is asked every
100 ms on a fresh connection and the slowest answer is kept, and the gateway's VmRSS (--pid)
is sampled. Then ANONYMOUS_UPLOADS anonymous 9 MiB uploads go to the proof-of-delivery
method, and the RSS growth they caused is reported. Held sockets the server has closed are
counted at the end.
"""

import argparse
import os
import socket
import threading
import time
import urllib.request


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def healthz(base):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as r:
            r.read()
            ok = r.status == 200
    except Exception:
        ok = False
    return ok, time.monotonic() - started


def open_hostile(host, port, kind):
    s = socket.create_connection((host, port), timeout=5)
    if kind == 0:
        s.sendall(b"GET /healthz HTT")
    elif kind == 1:
        s.sendall(
            b"POST /logistics.v1.ShipmentService/GetShipmentByTrackingNumber HTTP/1.1\r\n"
            b"Host: x\r\ncontent-type: application/grpc-web+proto\r\ncontent-length: 1000\r\n\r\n"
        )
    else:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    return s


def closed_by_server(s):
    s.setblocking(False)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def upload(host, port, size):
    """An anonymous upload: the head, then the body as fast as the server takes it."""
    s = socket.create_connection((host, port), timeout=30)
    path = "/logistics.v1.ShipmentService/RecordProofOfDelivery"
    s.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/grpc-web+proto\r\n"
        f"x-grpc-web: 1\r\ncontent-length: {size}\r\n\r\n".encode()
    )
    frame = bytes([0]) + (size - 5).to_bytes(4, "big")
    body = frame + b"\0" * (size - 5)
    sent = 0
    try:
        while sent < len(body):
            sent += s.send(body[sent : sent + 65536])
    except OSError:
        pass
    s.close()
    return sent


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--connections", type=int, default=int(os.environ.get("CONNECTIONS", 1000)))
    p.add_argument("--seconds", type=float, default=float(os.environ.get("SECONDS_HELD", 15)))
    p.add_argument("--uploads", type=int, default=3)
    a = p.parse_args()
    host, port = a.url.split("//")[1].split(":")
    port = int(port)
    rss_before = rss_kib(a.pid)
    held = []
    for i in range(a.connections):
        try:
            held.append(open_hostile(host, port, i % 3))
        except OSError:
            pass
    worst = 0.0
    failures = 0
    peak = rss_kib(a.pid)
    stop = time.monotonic() + a.seconds
    while time.monotonic() < stop:
        ok, took = healthz(a.url)
        worst = max(worst, took)
        failures += 0 if ok else 1
        peak = max(peak, rss_kib(a.pid))
        for s in held[1::3]:  # the slow bodies: one more byte
            try:
                s.send(b"\0")
            except OSError:
                pass
        time.sleep(0.1)
    closed = sum(1 for s in held if closed_by_server(s))
    for s in held:
        s.close()
    before_uploads = rss_kib(a.pid)
    upload_peak = before_uploads
    threads = [threading.Thread(target=upload, args=(host, port, 9 * 1024 * 1024)) for _ in range(a.uploads)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        upload_peak = max(upload_peak, rss_kib(a.pid))
        time.sleep(0.01)
    print(
        f"{len(held)} hostile connections held {a.seconds:.0f} s: slowest /healthz {worst * 1000:.0f} ms, "
        f"{failures} failed; {closed} closed by the gateway; RSS {rss_before // 1024} → peak {peak // 1024} MiB; "
        f"{a.uploads} anonymous 9 MiB uploads at once: RSS +{(upload_peak - before_uploads) // 1024} MiB"
    )


if __name__ == "__main__":
    main()
