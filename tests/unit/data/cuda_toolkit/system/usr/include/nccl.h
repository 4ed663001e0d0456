#define NCCL_MAJOR 2
#define NCCL_MINOR 27
#define NCCL_PATCH 3
