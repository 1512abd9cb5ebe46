// A shell function shared by the Dockerfile checks, prepended to each so every stored
// check stays self-contained. `dockerfile_instructions KEYWORD...` prints the
// Dockerfile's instructions of those kinds, one per line: continuation lines joined,
// comment lines dropped, CRs stripped. Without a Dockerfile it prints nothing.
export const DOCKERFILE_INSTRUCTIONS = String.raw`dockerfile_instructions() {
  [ -f environment/Dockerfile ] || return 0
  awk -v kinds=" $* " '
    { sub(/\r$/, "") }
    /^[[:space:]]*#/ { next }
    { line = (cont ? line " " : "") $0 }
    /\\[[:space:]]*$/ { sub(/\\[[:space:]]*$/, "", line); cont = 1; next }
    {
      cont = 0
      split(line, words, /[[:space:]]+/)
      word = (words[1] == "" ? words[2] : words[1])
      if (index(kinds, " " toupper(word) " ") > 0) print line
      line = ""
    }
  ' environment/Dockerfile
}
`;
