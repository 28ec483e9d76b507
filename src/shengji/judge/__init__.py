"""The JSON-lines rules oracle: ``shengji judge`` (see ``docs/protocol.md``); ``oracle.run``
reads requests on stdin and answers on stdout, ``oracle.answer`` answers one."""
