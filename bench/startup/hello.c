/* The start-up ladder's first rung: a dynamically linked C program that prints one line. */
#include <stdio.h>

int main(void) {
    puts("hello");
    return 0;
}
