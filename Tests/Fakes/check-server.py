#!/usr/bin/python3
# The monitor's connectivity check server for its tests, run inside the test's own network
# namespace: answers GET on 127.0.0.1 the way the internet or a captive portal would. Each line
# on stdin switches how it answers every later request:
#   online    204 No Content (the default check's expected answer)
#   body      200 with "NetworkManager is online\n" (a check with --check-expect)
#   redirect  302 to /portal/login?from=check (a captive portal)
#   wrong     200 with a hotel's welcome page (a portal that answers in the internet's place)
#   silent    accepts the connection and never answers (a dead upstream)
# Prints "listening PORT" once bound, "mode MODE" after each switch, "request PATH" per request.
#
# Usage: check-server.py INITIAL_MODE
import http.server
import socket
import sys
import threading
import time

mode = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        print(f"request {self.path}", flush=True)
        current = mode
        if current == "silent":
            time.sleep(3600)
            return
        if current == "online":
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif current == "redirect":
            self.send_response(302)
            self.send_header("Location", "/portal/login?from=check")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            body = b"NetworkManager is online\n" if current == "body" else b"<html>Welcome to the hotel Wi-Fi</html>\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *arguments):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    address_family = socket.AF_INET


server = Server(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"listening {server.server_address[1]}", flush=True)
for line in sys.stdin:
    mode = line.strip()
    print(f"mode {mode}", flush=True)
