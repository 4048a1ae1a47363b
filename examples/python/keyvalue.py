# SPDX-License-Identifier: GPL-2.0-or-later
"""A python() parser: key=value words of the message into fields under a prefix.

    parser p_kv { python(class("keyvalue.KeyValue") options("prefix" "kv.")); };
"""


class KeyValue(object):
    def init(self, options):
        self.prefix = options.get("prefix", "")
        return True

    def parse(self, msg):
        found = False
        for word in msg["MESSAGE"].decode("utf-8", "replace").split():
            key, sep, value = word.partition("=")
            if sep and key:
                msg[self.prefix + key] = value
                found = True
        # False: the message leaves this path, as a parser that did not match
        return found
