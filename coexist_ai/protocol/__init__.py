"""The coexist protocol: bots as programs talking JSON lines over stdin/stdout
(docs/protocol.md).

- messages: the line format, the commands and their replies;
- connection: a bot process seen from the frontend, every wait and read bounded;
- client: ExternalBot, a Bot whose moves come from such a process;
- server: `coexist-ai serve`, a built-in bot behind the protocol;
- check: `coexist-ai protocol check`, the compliance test of any bot program.
"""
from coexist_ai.protocol.messages import PROTOCOL_VERSION, ProtocolError

__all__ = ["PROTOCOL_VERSION", "ProtocolError"]
