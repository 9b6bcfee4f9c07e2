#!/usr/bin/env python3
"""Every process's /metrics passes `promtool check metrics` and gives every metric HELP text.

Starts the all-in-one gateway, then the distributed product (scripts/run-distributed.sh: a
gateway and four services, each with its own /metrics), makes a few calls through the gateway
so each process has written its metrics, scrapes each endpoint and checks it with promtool
(Debian package `prometheus`). Fails when promtool is missing.

Usage: scripts/check-metrics.py   (BIN_DIR: where the binaries are, default target/debug)
"""
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

from ports import free_ports

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN_DIR = os.environ.get("BIN_DIR", os.path.join(ROOT, "target", "debug"))
ADMIN_EMAIL = "admin@example.com"
ADMIN_PASSWORD = "metrics check password"


def endpoints(path):
    """The NAME=value lines of run-distributed.sh's endpoints.env."""
    with open(path) as f:
        return dict(line.strip().split("=", 1) for line in f if "=" in line and not line.startswith("#"))


def get(url, timeout=2):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def wait_healthy(port, process, seconds=180):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"check-metrics: the product exited ({process.returncode}) before it was healthy")
        try:
            get(f"http://127.0.0.1:{port}/healthz")
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("check-metrics: the product did not become healthy")


def field(number, text):
    data = text.encode()
    return bytes([number << 3 | 2, len(data)]) + data


def grpc_web(port, method, message=b"", cookie=None):
    """One gRPC-web call through the gateway; its Set-Cookie header, if any."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/logistics.v1.{method}",
        data=b"\0" + struct.pack(">I", len(message)) + message,
        headers={"content-type": "application/grpc-web+proto", "x-grpc-web": "1"},
    )
    if cookie:
        request.add_header("cookie", cookie)
    with urllib.request.urlopen(request, timeout=10) as r:
        r.read()
        return r.headers.get("set-cookie")


def exercise(port):
    """A call to each service, through the gateway, so each has metrics to show."""
    get(f"http://127.0.0.1:{port}/")
    grpc_web(port, "ShipmentService/GetShipmentByTrackingNumber", field(1, "PSE000000000"))
    grpc_web(port, "SessionService/CreateSession", field(1, ADMIN_EMAIL) + field(2, "wrong password"))
    cookie = grpc_web(port, "SessionService/CreateSession", field(1, ADMIN_EMAIL) + field(2, ADMIN_PASSWORD))
    if not cookie:
        sys.exit("check-metrics: the admin could not sign in")
    cookie = cookie.split(";")[0]
    grpc_web(port, "PreferenceService/GetPreferences", cookie=cookie)
    grpc_web(port, "NotificationService/ListNotifications", cookie=cookie)
    grpc_web(port, "ShipmentService/ListShipments", cookie=cookie)


def check(name, metrics_addr, promtool):
    text = get(f"http://{metrics_addr}/metrics", timeout=5).decode()
    helped = {line.split()[2] for line in text.splitlines() if line.startswith("# HELP ")}
    typed = {line.split()[2] for line in text.splitlines() if line.startswith("# TYPE ")}
    problems = [f"{metric} has no HELP" for metric in sorted(typed - helped)]
    if not typed:
        problems.append("no metrics at all")
    lint = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    if lint.returncode != 0:
        problems.append((lint.stdout + lint.stderr).strip())
    if problems:
        print(f"check-metrics: {name}:\n  " + "\n  ".join(problems), file=sys.stderr)
        return False
    print(f"check-metrics: {name}: {len(typed)} metrics, promtool passes")
    return True


def stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main():
    promtool = shutil.which("promtool")
    if not promtool:
        sys.exit("check-metrics: promtool is missing: apt-get install -y prometheus")
    for binary in ["gateway", "shipments", "auth", "notifications", "preferences"]:
        if not os.access(os.path.join(BIN_DIR, binary), os.X_OK):
            sys.exit(f"check-metrics: missing {BIN_DIR}/{binary}: cargo build -p {binary}")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        static = os.path.join(tmp, "static")
        os.mkdir(static)
        with open(os.path.join(static, "index.html"), "w") as f:
            f.write("<!doctype html><title>metrics check</title>")
        env = dict(os.environ, STATIC_DIR=static, ADMIN_EMAIL=ADMIN_EMAIL, ADMIN_PASSWORD=ADMIN_PASSWORD,
                   RUST_LOG="warn")

        port, metrics = free_ports(2)
        all_in_one = subprocess.Popen(
            [os.path.join(BIN_DIR, "gateway")],
            env=dict(env, PORT=str(port), METRICS_ADDR=f"127.0.0.1:{metrics}",
                     DATA_DIR=os.path.join(tmp, "all-in-one")),
            start_new_session=True,
        )
        try:
            wait_healthy(port, all_in_one)
            exercise(port)
            ok &= check("all-in-one gateway", f"127.0.0.1:{metrics}", promtool)
        finally:
            stop(all_in_one)

        ports = free_ports(12)
        names = ["gateway", "shipments", "auth", "notifications", "preferences"]
        distributed = subprocess.Popen(
            [os.path.join(ROOT, "scripts", "run-distributed.sh")],
            env=dict(env, BIN_DIR=BIN_DIR, DATA_ROOT=os.path.join(tmp, "distributed"),
                     PORT=str(ports[0]), METRICS_PORT_BASE=str(ports[1]),
                     REDIS_PORT=str(ports[6]), MONGO_PORT=str(ports[7]), SHIPMENTS_PORT=str(ports[8]),
                     AUTH_PORT=str(ports[9]), NOTIFICATIONS_PORT=str(ports[10]),
                     PREFERENCES_PORT=str(ports[11])),
            start_new_session=True,
        )
        try:
            wait_healthy(ports[0], distributed)
            exercise(ports[0])
            # run-distributed.sh moves a metrics port that was taken meanwhile; this file says where.
            addrs = endpoints(os.path.join(tmp, "distributed", "endpoints.env"))
            for name in names:
                ok &= check(f"distributed {name}", addrs[f"{name.upper()}_METRICS_ADDR"], promtool)
        finally:
            stop(distributed)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
