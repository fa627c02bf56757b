#!/usr/bin/env python3
"""Synthetic inputs for the domain lexicon measurements in docs/domain.md (standard library only).

  domain_synth.py han-corpus SRC.jsonl DST.jsonl [N]
      gen_zipf_corpus.py's corpus with each token wN replaced by a fixed 2-4 character Han word
      (deterministic from N), words joined by 、, first N documents (default all).
  domain_synth.py han-lexicon DST.qdl
      a valid lexicon of 50 000 random Han terms of 2-8 characters (seed 7): the loader's worst
      case, terms sharing almost no prefixes.
"""
import json
import random
import sys


def han(n):
    k = 2 + n % 3
    return ''.join(chr(0x4E00 + ((n * 2654435761 + i * 40503) % 20000)) for i in range(k))


def han_corpus(src, dst, limit):
    cache = {}
    with open(src, encoding='utf-8') as f, open(dst, 'w', encoding='utf-8') as out:
        for i, line in enumerate(f):
            if limit is not None and i >= limit:
                break
            o = json.loads(line)
            words = [cache.setdefault(t, han(int(t[1:]))) for t in o['text'].split()]
            out.write(json.dumps({'id': o['id'], 'text': '、'.join(words)}, ensure_ascii=False) + '\n')


def han_lexicon(dst):
    rng = random.Random(7)
    terms = set()
    while len(terms) < 50000:
        k = rng.choice([2, 2, 2, 3, 3, 4, 4, 5, 6, 8])
        terms.add(''.join(chr(0x4E00 + rng.randrange(6000)) for _ in range(k)))
    rows = sorted(terms, key=lambda t: t.encode('utf-8'))
    head = ('qaplan-domain-lexicon\t1\nbuilt_from\tcorpus\tsynthetic\t' + '0' * 64 +
            '\nbackground\t' + '0' * 64 + '\ndocs\t1000000\nmin_df\t2\ncontrast\t8\n'
            'chat_common\t0.005\npair_share\t0.5\nsource_share\t0.8\nsource_min_df\t2\n'
            'sources\ta\tb\tc\nterms\t50000\nterm\tdf\tsource\tshare\n')
    body = ''.join(f'{t}\t{rng.randint(2, 100000)}\t{rng.choice("-abc")}\t0.{rng.randint(1000, 9999)}\n'
                   for t in rows)
    with open(dst, 'w', encoding='utf-8', newline='\n') as out:
        out.write(head + body)


if __name__ == '__main__':
    if len(sys.argv) >= 4 and sys.argv[1] == 'han-corpus':
        han_corpus(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else None)
    elif len(sys.argv) == 3 and sys.argv[1] == 'han-lexicon':
        han_lexicon(sys.argv[2])
    else:
        sys.exit(__doc__)
