import torch
import torch as T

scaler = torch.cuda.amp.GradScaler()
with T.cuda.amp.autocast(enabled=True, dtype=torch.bfloat16):
    pass
with torch.cpu.amp.autocast():
    pass
data = open("C:\new\data.csv")
log = open("train.log", "a",)
notes = open(
    "notes.txt"
)
keep = open("weights.bin", "rb")
