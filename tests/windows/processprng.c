/* Rust's standard library (1.78 and later) takes its random bytes from ProcessPrng in
 * bcryptprimitives.dll, which Windows 10 and later have and Wine 8 does not. This stand-in
 * exports it over RtlGenRandom (SystemFunction036 in advapi32, which Wine has). It is put
 * beside backoffice.exe in the tests' Wine prefix only, never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
