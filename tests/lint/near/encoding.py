# lint-args: --os windows --torch 2.5 --cuda yes
from pathlib import Path

with open("log.txt", "w", encoding="utf-8") as fh:
    fh.write("x")
blob = open("weights.bin", "rb").read()
cfg = Path("cfg.yaml").read_text(encoding="utf-8")
mode = "r"
other = open("x", mode)
