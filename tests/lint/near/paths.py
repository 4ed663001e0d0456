# lint-args: --os windows --torch 2.5 --cuda yes
import os
import re

data = open(r"data\new.csv", encoding="utf-8")
print("line one\nline two")
pattern = re.compile("\\d+")
tab = "a\tb"
rel = "runs/exp1/model.pt"
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def f():
    """Escapes in a docstring: C:\\x, \n."""
