#!/usr/bin/env zsh
# zsh-complete.zsh FPATH_DIR OUT < LINES: for each input line, type it and
# TAB in one interactive zsh (zpty) with FPATH_DIR's completion loaded, and
# append the edit buffer afterwards (what completion made of the line) to
# OUT, one line each. Exit 2 when zsh could not be driven.
zmodload zsh/zpty || exit 2
dir=$1 out=$2
: >$out
zpty z zsh -f -i || exit 2
zpty -w z "PROMPT='> '; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
# dumpbuf writes a non-empty buffer only, so a repeated ^X is harmless.
zpty -w z "dumpbuf() { [[ -n \$BUFFER ]] && print -r -- \"\$BUFFER\" >>${(q)out}; BUFFER= }; zle -N dumpbuf; bindkey '^X' dumpbuf"
zpty -w z "print -r -- READY"
zpty -r -m z junk '*READY*READY*' || { print -u2 "zsh-complete: the shell did not start"; exit 2 }
n=0
while IFS= read -r line; do
  n=$(( n + 1 ))
  zpty -w -n z "$line"$'\t'
  sleep 0.15
  zpty -w -n z $'\C-x'
  # Up to 30 s: a completion may run lxgpu (GPU indexes), slow under ASan.
  # Drain the terminal meanwhile: zsh blocks once the pty's buffer is full
  # (a completion listing), and would never get to the ^X. On a loaded
  # machine a ^X typed while the completion runs can be lost: again every 2 s.
  for i in {1..300}; do
    (( $(wc -l <$out) >= n )) && break
    while zpty -r -t z junk 2>/dev/null; do :; done
    (( i % 20 == 0 )) && zpty -w -n z $'\C-x'
    sleep 0.1
  done
  (( $(wc -l <$out) >= n )) || { print -u2 "zsh-complete: no buffer back for: $line"; exit 2 }
  # Drain what the terminal echoed, so zpty's buffer never fills.
  zpty -r -t z junk 2>/dev/null
  while zpty -r -t z junk 2>/dev/null; do :; done
done
zpty -d z
(( $(wc -l <$out) == n ))
