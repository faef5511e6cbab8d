# Sourced by .ci/sanitize and .ci/cross: the SIMD levels of csrc/kernels/isa_list.h that a test
# build keeps. Each SIMD file takes a minute or more to compile, and a level this CPU cannot
# run is only compiled, never tested.
#   best_level: the best level this CPU runs (its name in isa_list.h), baseline if none;
#   skip_levels_except NAME...: the flags that leave every other SIMD level out of the build
#     (-DARGEXT_NO_<ENUM>, csrc/kernels/platform.h).

best_level() {
    local flags
    flags="$(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null || true)"
    case " $flags " in
    *" avx512bw "*) echo avx512 ;;
    *" avx2 "*) echo avx2 ;;
    *" sse4_2 "*) echo sse42 ;;
    *" asimd "*) echo neon ;;
    *) echo baseline ;;
    esac
}

skip_levels_except() {
    local enum name
    while read -r enum name; do
        case " baseline $* " in
        *" $name "*) ;;
        *) echo "-DARGEXT_NO_$enum" ;;
        esac
    done < <(sed -n 's/.*X(\([A-Z0-9]*\), \([a-z0-9]*\), [0-9]*, [A-Z0-9_]*, ".*/\1 \2/p' \
        csrc/kernels/isa_list.h)
}
