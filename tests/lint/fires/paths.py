# lint-args: --os windows --torch 2.5 --cuda yes
import os

data = open("C:\new\data.csv", encoding="utf-8")  # expect: paths warning
cfg = os.path.join(root, "configs\train")  # expect: paths warning
out = "D:/runs/exp1/model.pt"  # expect: paths warning
log = "logs\today.txt"  # expect: paths warning
up = os.path.join("..", "data")  # expect: paths info
