/* fixture: the top of cuda.h */
#  define CUDA_VERSION 12080
