#!/usr/bin/env python3
"""Sends COUNT RFC 3164 lines with JSON bodies to 127.0.0.1:PORT in writes
of 1 MiB, all built before the first one; prints the time sending began.

    bench/json-lines.py COUNT PORT
"""
import socket
import sys
import time


def build(count):
    line = ('<11>Feb  3 12:34:56 web{host} app[{pid}]: {{"level":"error","user":{{"id":{i},"name":"user{i}"}},'
            '"ts":"2026-02-03T12:34:56+01:00","path":"/api/v1/items/{i}","tags":["a","b"],"latency":0.{ms:03d}}}\n')
    return ''.join(line.format(host=i % 16, pid=1000 + i % 50, i=i, ms=i % 1000) for i in range(count)).encode()


def main():
    count, port = int(sys.argv[1]), int(sys.argv[2])
    data = memoryview(build(count))
    with socket.create_connection(('127.0.0.1', port)) as sock:
        start = time.time()
        for offset in range(0, len(data), 1 << 20):
            sock.sendall(data[offset:offset + (1 << 20)])
    print(f'{start:.6f}')


if __name__ == '__main__':
    main()
