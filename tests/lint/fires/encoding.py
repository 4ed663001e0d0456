# lint-args: --os windows --torch 2.5 --cuda yes
from pathlib import Path

with open("log.txt", "w") as fh:  # expect: encoding warning
    fh.write("x")
text = open("notes.md").read()  # expect: encoding warning
cfg = Path("cfg.yaml").read_text()  # expect: encoding warning
