"""`python -m citewise.testing.standin_llm --set FILE.jsonl --mode MODE --port N`: serves the
stand-in until interrupted, printing its base URL."""

from __future__ import annotations

import argparse
from pathlib import Path

from citewise.testing.standin_llm.answers import MODES
from citewise.testing.standin_llm.gold import Knowledge
from citewise.testing.standin_llm.model import Behaviour
from citewise.testing.standin_llm.server import Faults, StandinServer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--set", type=Path, required=True, help="check set (JSONL) to answer from")
    parser.add_argument("--mode", choices=MODES, default="faithful")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--model", default="standin", help="the model name /v1/models lists")
    parser.add_argument("--log", type=Path, help="append a JSON record of every request here")
    parser.add_argument("--token-delay", type=float, default=0.0, help="seconds before a token")
    parser.add_argument("--cut-after", type=int, help="drop a stream after N tokens")
    parser.add_argument(
        "--malformed-after", type=int, help="send broken JSON after N tokens (plain: at once)"
    )
    parser.add_argument("--judge", choices=("json", "malformed"), default="json")
    args = parser.parse_args(argv)
    server = StandinServer(
        Knowledge.load(args.set),
        Behaviour(args.mode, args.judge),
        faults=Faults(args.token_delay, args.cut_after, args.malformed_after),
        model_name=args.model,
        port=args.port,
        log=args.log,
    )
    print(f"stand-in LLM ({args.mode}) at {server.base_url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close_socket()


if __name__ == "__main__":
    main()
