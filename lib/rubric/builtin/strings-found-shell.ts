// A shell function shared by the checks that look for many strings at once, prepended to each
// so every stored check stays self-contained. `strings_found [-w] LIST TEXT` prints the lines of
// the file LIST that occur in the file TEXT — with -w only as whole words, by grep -wF's rule (no
// letter, digit or underscore right before or after) — in one awk process. A check's cost then
// grows with the size of its files, not with a grep process per string (a check that spawned
// two greps per expected value ran out of its budget on a loaded machine).
export const STRINGS_FOUND = String.raw`strings_found() {
  local words=0
  [ "$1" = -w ] && { words=1; shift; }
  awk -v words="$words" '
    function word_char(c) { return c ~ /[A-Za-z0-9_]/ }
    function occurs(value,    from, at, before, after) {
      from = 1
      while ((at = index(substr(text, from), value)) > 0) {
        at += from - 1
        if (!words) return 1
        before = at > 1 ? substr(text, at - 1, 1) : ""
        after = substr(text, at + length(value), 1)
        if (!word_char(before) && !word_char(after)) return 1
        from = at + 1
      }
      return 0
    }
    FILENAME == ARGV[1] { if ($0 != "") wanted[++count] = $0; next }
    { text = text $0 "\n" }
    END { for (i = 1; i <= count; i++) if (occurs(wanted[i])) print wanted[i] }
  ' "$1" "$2"
}
`;
