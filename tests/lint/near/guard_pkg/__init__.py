# lint-args: --os windows --torch 2.5 --cuda yes
