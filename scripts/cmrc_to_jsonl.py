#!/usr/bin/env python3
"""Convert CMRC 2018 (SQuAD v1 JSON) into the JSONL shapes `qaplan search` / `qaplan tokenize` read.

Usage: cmrc_to_jsonl.py CMRC.json OUTDIR
Writes OUTDIR/corpus.jsonl  {"id": paragraph id, "text": paragraph context}   (one line per paragraph)
       OUTDIR/queries.jsonl {"id": question id, "query": question text}       (one line per question)
       OUTDIR/qrels.tsv     "qid<TAB>docid" — the paragraph each question was written from
Passages are the paragraph body only (no article title), in file order; questions in file order.
Checks the id layout (question DEV_n_QUERY_m belongs to paragraph DEV_n) and exits 2 on surprises.
Standard library only; output is deterministic (UTF-8, no ASCII escaping, sorted keys off).
"""
import json
import os
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    try:
        with open(src, encoding="utf-8") as f:
            data = json.load(f)["data"]
    except (OSError, ValueError, KeyError) as e:
        print(f"cmrc_to_jsonl: cannot read {src}: {e}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    npara = nq = 0
    seen = set()
    with open(os.path.join(out, "corpus.jsonl"), "w", encoding="utf-8") as fc, \
         open(os.path.join(out, "queries.jsonl"), "w", encoding="utf-8") as fq, \
         open(os.path.join(out, "qrels.tsv"), "w", encoding="utf-8") as fr:
        for article in data:
            for para in article["paragraphs"]:
                pid = para["id"]
                if pid in seen or "\t" in pid:
                    print(f"cmrc_to_jsonl: bad or duplicate paragraph id {pid!r}", file=sys.stderr)
                    return 2
                seen.add(pid)
                fc.write(json.dumps({"id": pid, "text": para["context"]}, ensure_ascii=False) + "\n")
                npara += 1
                for qa in para["qas"]:
                    qid = qa["id"]
                    if not qid.startswith(pid + "_QUERY_"):
                        print(f"cmrc_to_jsonl: question {qid!r} not under paragraph {pid!r}",
                              file=sys.stderr)
                        return 2
                    fq.write(json.dumps({"id": qid, "query": qa["question"]},
                                        ensure_ascii=False) + "\n")
                    fr.write(f"{qid}\t{pid}\n")
                    nq += 1
    print(f"cmrc_to_jsonl: {npara} passages, {nq} questions -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
