# SPDX-License-Identifier: GPL-2.0-or-later
"""The part of a Kubernetes API server that kubernetes-metadata-parser()
asks: GET /api/v1/namespaces/NS/pods?fieldSelector=metadata.name==POD,
answered from the pods below (one pod of each name, in any namespace).
    python3 kube-api.py PORT
serves on 127.0.0.1:PORT until it is stopped."""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

PODS = {
    "web-7d9f": {
        "uid": "0b1c6a52-8d55-4c1e-9a7e-1f2d3c4b5a69",
        "labels": {"app": "web", "tier": "front"},
        "annotations": {"team": "ops"},
        "container": ("nginx", "nginx:1.27", "docker-pullable://nginx@sha256:" + "a" * 64,
                      "docker://" + "3f" * 32),
    },
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        selector = parse_qs(url.query).get("fieldSelector", [""])[0]
        name = selector.split("==", 1)[1] if "==" in selector else ""
        if len(parts) != 5 or parts[:3] != ["api", "v1", "namespaces"] or parts[4] != "pods":
            self.send_error(404)
            return
        items = []
        if name in PODS:
            pod = PODS[name]
            container, image, image_id, container_id = pod["container"]
            items.append({
                "metadata": {"name": name, "namespace": parts[3], "uid": pod["uid"],
                             "labels": pod["labels"], "annotations": pod["annotations"]},
                "status": {"containerStatuses": [{
                    "name": container, "image": image, "imageID": image_id, "containerID": container_id,
                    "ready": True, "restartCount": 0}]},
            })
        body = json.dumps({"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": items}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
