#!/usr/bin/env python3
"""Writes tests/data/chess960-starts.tsv: the 960 Chess960 start positions by Scharnagl number
with perft 1-3 counted by pyffish (Fairy-Stockfish's rules). Usage:
    ~/.cache/chimera-venv/bin/python scripts/chess960_starts.py > tests/data/chess960-starts.tsv
"""
import pyffish as sf
def back_rank(n):
    r=[' ']*8
    r[(n%4)*2+1]='B'; n//=4
    r[(n%4)*2]='B'; n//=4
    def nth_empty(k,p):
        e=[i for i in range(8) if r[i]==' ']; r[e[k]]=p
    nth_empty(n%6,'Q'); n//=6
    K=[(0,1),(0,2),(0,3),(0,4),(1,2),(1,3),(1,4),(2,3),(2,4),(3,4)]
    a,b=K[n]; e=[i for i in range(8) if r[i]==' ']; r[e[a]]='N'; r[e[b]]='N'
    for p in 'RKR': nth_empty(0,p)
    return ''.join(r)
def perft(fen,moves,d):
    lm=sf.legal_moves('chess',fen,moves,True)
    if d==1: return len(lm)
    return sum(perft(fen,moves+[m],d-1) for m in lm)
print("# The 960 Chess960 start positions by Scharnagl number, with perft 1-3 from pyffish 0.0.90")
print("# (Fairy-Stockfish's rules, chess960 mode), written by scripts/chess960_starts.py.")
print("# Columns: number, FEN, perft 1, perft 2, perft 3.")
for n in range(960):
    w=back_rank(n); fen=f"{w.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{w} w KQkq - 0 1"
    print(n, fen, perft(fen,[],1), perft(fen,[],2), perft(fen,[],3), sep='\t')
