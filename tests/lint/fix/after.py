import torch
import torch as T

scaler = torch.amp.GradScaler("cuda")
with T.amp.autocast("cuda", enabled=True, dtype=torch.bfloat16):
    pass
with torch.amp.autocast("cpu"):
    pass
data = open(r"C:\new\data.csv", encoding="utf-8")
log = open("train.log", "a", encoding="utf-8")
notes = open(
    "notes.txt", encoding="utf-8"
)
keep = open("weights.bin", "rb")
