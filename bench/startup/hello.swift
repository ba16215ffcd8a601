// The start-up ladder's Swift rung: the Swift runtime and standard library, nothing else
// (built twice: with the dynamic stdlib, and with -static-stdlib).
print("hello")
