import torch

scaler = torch.amp.GradScaler("cuda")
log = open(r"C:\logs\train.txt", "w", encoding="utf-8")
