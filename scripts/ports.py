#!/usr/bin/env python3
"""Free loopback ports for the processes a script starts, taken below the kernel's ephemeral
range: a port picked there can be taken by an outgoing connection of a process started
meanwhile, before the process meant for it binds it.

Usage: scripts/ports.py [COUNT]   prints COUNT (default 1) consecutive free ports, one per line
"""
import random
import socket
import sys

LOWEST = 10000


def free_ports(count=1):
    """`count` consecutive loopback ports that are free now."""
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        ephemeral_low = int(f.read().split()[0])
    while True:
        base = random.randrange(LOWEST, ephemeral_low - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return list(range(base, base + count))
        except OSError:
            continue


def free_port():
    return free_ports(1)[0]


if __name__ == "__main__":
    print("\n".join(map(str, free_ports(int(sys.argv[1]) if len(sys.argv) > 1 else 1))))
