# lint-args: --os windows --torch 2.5 --cuda yes
import torch.distributed as dist

dist.init_process_group(backend="nccl")  # expect: dist error
dist.init_process_group("gloo")  # expect: dist warning
