"""A real HTTP server on 127.0.0.1 whose answers a test sets per path."""

import http.server
import threading


class Site(http.server.ThreadingHTTPServer):
    """Serves ``routes[path] = (status, headers, body)``; 404 otherwise.
    ``log`` lists the paths requested, in order."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes = {}
        self.log = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def close(self):
        self.shutdown()
        self.server_close()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with self.server.lock:
            self.server.log.append(self.path)
        status, headers, body = self.server.routes.get(
            self.path, (404, {}, b"not found"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass
