"""faults.py - the faults injected into new game code, written once for both legs: test_survive_faults.py
(Linux) and tests/windows/test_win_e2e.py (the host.exe under wine).

Every fault first changes the state (the step counter becomes SENTINEL) and then faults in the same call, so a
rollback that does not restore the snapshot shows as the sentinel in the state, not only as a crash survived.
The store is volatile: before a null store or __builtin_abort the compiler may drop a plain store as dead,
and the case would then pass without the restore it is there to check.

Each entry: name, entry point, code, where the crash is reported ("update", "render", "load"), and per
leg the signal name the host reports and (Windows) the function DbgHelp should name in the first frame
(None: only the module and offset are expected). A leg without a signal for an entry skips it.
"""

SENTINEL = 1 << 40   # a step count no run reaches
STATE_CHANGE = f"*(volatile uint64_t *)&game_state(mem)->steps = {SENTINEL}ull;"   # undone by the rollback


def state_restored(before_steps, back_steps):
    """None when the state after a rollback is the snapshot's: the sentinel gone and no step lost since the
    case began; else what is wrong."""
    if back_steps >= SENTINEL:
        return f"the faulting code's store survived the rollback: steps {back_steps} (the snapshot was not restored)"
    if back_steps < before_steps - 1:
        return f"state lost: steps {before_steps} -> {back_steps}"
    return None

FAULTS = [
    # name, entry, code, in, linux signal, windows signal, windows function
    ("null_deref_in_update", "GAME_UPDATE(game_update)", "*(volatile int *)0 = 1;", "update",
     "SIGSEGV", "access violation", "game_update"),
    ("abort_in_update", "GAME_UPDATE(game_update)", "if (in->step > 0) __builtin_abort();", "update",
     "SIGABRT", "abort", "game_update"),
    ("divide_by_zero_in_update", "GAME_UPDATE(game_update)",
     "{ volatile int zero = 0; volatile int x = 1000 / zero; (void)x; }", "update",
     "SIGFPE", "divide by zero", "game_update"),
    # the fault is in the stack probe (libgcc's ___chkstk_ms, no debug info) and no frame is walked after an overflow
    ("stack_overflow_in_update", "GAME_UPDATE(game_update)",
     "{ struct R { static int down(volatile int n) { volatile char pad[4096]; pad[0] = (char)n; "
     "return down(n + 1) + pad[0]; } }; if (in->step > 0) R::down(0); }", "update",
     None, "access violation", None),
    ("illegal_instruction_in_render", "GAME_RENDER(game_render)", "__builtin_trap();", "render",
     "SIGILL", "illegal instruction", "game_render"),
    ("null_deref_in_render", "GAME_RENDER(game_render)", "*(volatile int *)8 = 1;", "render",
     "SIGSEGV", None, None),
    ("crash_in_load_hook", "GAME_LOAD(game_load)", "*(volatile int *)0 = 1;", "load",
     "SIGSEGV", None, None),
    ("endless_loop_in_update", "GAME_UPDATE(game_update)", "for (volatile int spin = 1; spin;) {}", "update",
     "hang", "hang", "game_update"),
]


def faults_for(leg):
    """(name, entry, code with the state change first, in, signal, function) for leg "linux" or "windows"."""
    out = []
    for name, entry, code, where, linux_sig, win_sig, win_fn in FAULTS:
        sig = linux_sig if leg == "linux" else win_sig
        if sig is None:
            continue
        out.append((name, entry, STATE_CHANGE + " " + code, where, sig, win_fn if leg == "windows" else None))
    return out
