# lint-args: --os windows --torch 2.5 --cuda yes
import os
from tqdm import tqdm

for batch in tqdm(loader, ascii=True):
    pass
for batch in tqdm(loader, ascii=os.name == "nt"):
    pass
