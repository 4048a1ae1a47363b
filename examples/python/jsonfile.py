# SPDX-License-Identifier: GPL-2.0-or-later
"""A python() destination: each message as one line of JSON in a file.

    destination d_json { python(class("jsonfile.JsonFile")
                                options("path" "/var/log/messages.json")); };
"""
import json


class JsonFile(object):
    def init(self, options):
        self.path = options["path"]
        self.file = None
        return True

    def open(self):
        self.file = open(self.path, "a", encoding="utf-8")
        return True

    def is_opened(self):
        return self.file is not None

    def close(self):
        self.file.close()
        self.file = None

    def send(self, msg):
        record = {name: msg[name].decode("utf-8", "replace") for name in ("HOST", "PROGRAM", "MESSAGE")}
        record["timestamp"] = msg["ISODATE"].decode()
        self.file.write(json.dumps(record) + "\n")
        return self.QUEUED

    def flush(self):
        # QUEUED messages count as delivered only once this returns SUCCESS
        self.file.flush()
        return self.SUCCESS
