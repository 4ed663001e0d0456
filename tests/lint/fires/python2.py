# lint-args: --os linux --torch 2.6 --cuda yes
import torch
print "old style"
exec "x = 1"
state = torch.load("m.pt")  # expect: load error
