#!/usr/bin/python3
# A hostile answer to the monitor's connectivity check, for its tests: a raw TCP server on
# 127.0.0.1 (of the network namespace it runs in) that answers each connection as its current
# mode says, bytes written by hand so that they can break HTTP. Each line on stdin switches the
# mode for every later connection:
#   body            200 with "NetworkManager is online\n" (the internet, for --check-expect)
#   online          204 No Content
#   garbage         bytes that are no status line, then close
#   huge-chunk      chunked 200 whose chunk size is 20 hex digits, then endless body bytes
#   negative-chunk  chunked 200 whose chunk size is "-5"
#   endless-line    a status line, then one header line that never ends
#   endless-headers a status line, then header lines that never end
#   endless-interim "100 Continue" answers that never end
#   endless-body    200 without a length, then body bytes that never end
#   huge-length     200 announcing a Content-Length of 10^20 bytes
#   drip            a 204 status line, then 300 more bytes of header one byte per second
#   reset           reads the request, then resets the connection (RST)
#   redirect-loop   302 to the check URL itself
#   redirect-file   302 to file:///etc/passwd
# Endless answers stop when the client goes away. Prints "listening PORT" once bound, "mode
# MODE" after each switch, "request" per connection that sent a request.
#
# With --ipv6 it listens on ::1 instead; with --tls CERT KEY it speaks TLS with that certificate.
#
# Usage: hostile-server.py INITIAL_MODE [--ipv6] [--tls CERT KEY]
import socket
import ssl
import struct
import sys
import threading
import time

mode = sys.argv[1]
ipv6 = "--ipv6" in sys.argv
tls = None
if "--tls" in sys.argv:
    where = sys.argv.index("--tls")
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(sys.argv[where + 1], sys.argv[where + 2])
BLOCK = b"x" * 65536


def endless(connection, head, piece):
    connection.sendall(head)
    while True:
        connection.sendall(piece)


def answer(connection, current):
    if current == "body":
        body = b"NetworkManager is online\n"
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    elif current == "online":
        connection.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
    elif current == "garbage":
        connection.sendall(b"\x00\xff\xfeSPAM SPAM SPAM\r\n\x1b[2J\r\n\r\n")
    elif current == "huge-chunk":
        endless(connection, b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", BLOCK)
    elif current == "negative-chunk":
        connection.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n")
    elif current == "endless-line":
        endless(connection, b"HTTP/1.1 200 OK\r\nX-Endless: ", BLOCK)
    elif current == "endless-headers":
        endless(connection, b"HTTP/1.1 200 OK\r\n", b"X-Again: and again\r\n" * 1024)
    elif current == "endless-interim":
        endless(connection, b"", b"HTTP/1.1 100 Continue\r\n\r\n" * 1024)
    elif current == "endless-body":
        endless(connection, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n", BLOCK)
    elif current == "huge-length":
        endless(connection, b"HTTP/1.1 200 OK\r\nContent-Length: 100000000000000000000\r\n\r\n", BLOCK)
    elif current == "drip":
        connection.sendall(b"HTTP/1.1 204 No Content\r\n")
        for byte in b"X-Drip: " + b"." * 270 + b"\r\nContent-Length: 0\r\n\r\n":
            connection.sendall(bytes([byte]))
            time.sleep(1)
    elif current == "reset":
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif current == "redirect-loop":
        connection.sendall(b"HTTP/1.1 302 Found\r\nLocation: /check\r\nContent-Length: 0\r\n\r\n")
    elif current == "redirect-file":
        connection.sendall(b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n")


def serve(connection):
    current = mode
    try:
        if tls is not None:
            connection = tls.wrap_socket(connection, server_side=True)
        request = b""
        while b"\r\n\r\n" not in request and len(request) < 65536:
            data = connection.recv(4096)
            if not data:
                return
            request += data
        print("request", flush=True)
        answer(connection, current)
    except OSError:
        pass
    finally:
        connection.close()


listener = socket.socket(socket.AF_INET6 if ipv6 else socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("::1" if ipv6 else "127.0.0.1", 0))
listener.listen(16)


def accept():
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()
print(f"listening {listener.getsockname()[1]}", flush=True)
for line in sys.stdin:
    mode = line.strip()
    print(f"mode {mode}", flush=True)
