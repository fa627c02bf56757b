#!/usr/bin/env python3
"""Build the router classifier's training data: eval_sets/router/ (docs/classifier.md).

Usage: scripts/make_router_data.py [--external DIR] [--out DIR] [--check]
  --external  the shared external data folder (default: ../shared/external beside the checkout)
  --out       the router data folder (default: eval_sets/router)
  --check     rebuild in memory and compare with the files on disk; exit 1 on any difference

What it does, deterministically (same inputs → byte-identical outputs):
  1. derives eval_sets/router/external/*.jsonl from the permissively licensed parts of
     ../shared/external (see NOTICE.md, written here too) and copies their licence files;
  2. derives followups_dev.jsonl (the `dev` rows of tests/data/followups.jsonl; never its test rows)
     and topic_switches.jsonl (own questions that name a source, after an own question on another
     source: dependent = false);
  3. assigns every row of every file (own files included) a frozen `split` from the SHA-256 of its
     normalized text (70 % train, 10 % dev, 20 % test), so one text is never in two splits; a text
     that also occurs in one of the repository's test tables (tests/data) is forced into `test`;
  4. writes fingerprints.json (SHA-256 of every data file).

Normalization for the split key mirrors qaplan's normalize_question (NFKC + case folding, default
ignorables dropped, whitespace collapsed and removed between Han characters, Traditional →
Simplified with OpenCC's TWPhrasesRev + TSPhrases + TSCharacters through the `opencc` command).
It is an approximation of the C++ function; `qaplan model train` re-checks the invariant with the
real one and refuses data where one normalized text sits in two splits.

Needs: python3 (standard library + PyYAML), the `opencc` command (Debian package opencc).
"""
import argparse
import collections
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ACTS = ["greeting", "thanks", "goodbye", "acknowledgement", "chit_chat", "handoff",
        "out_of_scope", "unclear", "question"]
KEYS = ["text", "act", "intent", "category", "source", "lang", "split"]
TENCENT_SAMPLE = 3000
TOPIC_SWITCH_EVERY = 3  # one own question in three gets an unrelated previous question
WRAP_EVERY = 4          # one own question in four is also written inside social words

# Social words around a real question (a greeting before it, thanks after it …): the message is
# still a question. Chosen per question by hash; by script of the question.
WRAPPERS = {
    "zh-Hans": (["你好，", "您好，", "在吗？", "打扰一下，", "谢谢！另外想问一下，", "好的，",
                 "嗯嗯，还有个问题，", "hi，", "早上好，请问", "麻烦问下，", "好的谢谢，再问一下，"],
                ["，谢谢", "，谢谢啦", "？谢谢！", "，麻烦了", "，多谢", " thanks", "，感谢"]),
    "zh-Hant": (["你好，", "您好，", "謝謝！另外想問一下，", "請問一下，", "好的，", "在嗎？"],
                ["，謝謝", "，感謝", "，麻煩了", "？謝謝！"]),
    "en": (["Hi, ", "Hello! ", "Thanks! Also, ", "Good morning, ", "Hey there, ",
            "OK thanks. One more question: "],
           [", thanks!", ", thank you", ", thanks a lot", ". Cheers."]),
}

# ---------------------------------------------------------------------------------------------
# Normalization (split key only)

OPENCC_CONFIG = {
    "name": "qaplan: Traditional (with Taiwan phrases) to Simplified, no variant rewrites",
    "segmentation": {"type": "mmseg", "dict": {"type": "ocd2", "file": "TSPhrases.ocd2"}},
    "conversion_chain": [
        {"dict": {"type": "ocd2", "file": "TWPhrasesRev.ocd2"}},
        {"dict": {"type": "group", "dicts": [{"type": "ocd2", "file": "TSPhrases.ocd2"},
                                             {"type": "ocd2", "file": "TSCharacters.ocd2"}]}},
    ],
}


def is_han(ch):
    cp = ord(ch)
    return (0x2E80 <= cp <= 0x2FDF or 0x3005 <= cp <= 0x3007 or 0x3021 <= cp <= 0x3029
            or 0x3038 <= cp <= 0x303B or 0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF
            or 0xF900 <= cp <= 0xFAFF or 0x20000 <= cp <= 0x3134F)


def is_default_ignorable(ch):
    cp = ord(ch)
    return (cp == 0x00AD or cp == 0x034F or cp == 0x061C or 0x115F <= cp <= 0x1160
            or 0x17B4 <= cp <= 0x17B5 or 0x180B <= cp <= 0x180F or 0x200B <= cp <= 0x200F
            or 0x202A <= cp <= 0x202E or 0x2060 <= cp <= 0x206F or cp == 0x3164
            or 0xFE00 <= cp <= 0xFE0F or cp == 0xFEFF or cp == 0xFFA0 or 0xFFF0 <= cp <= 0xFFF8
            or 0x1BCA0 <= cp <= 0x1BCA3 or 0x1D173 <= cp <= 0x1D17A or 0xE0000 <= cp <= 0xE0FFF)


def is_space(ch):
    cp = ord(ch)
    return cp <= 0x20 or 0x7F <= cp <= 0x9F or ch.isspace()


def fold(text):
    s = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    s = "".join(ch for ch in s if not is_default_ignorable(ch))
    out = []
    pending = False
    prev_han = False
    for ch in s:
        if is_space(ch):
            pending = bool(out)
            continue
        han = is_han(ch)
        if pending and not (prev_han and han):
            out.append(" ")
        pending = False
        out.append(ch)
        prev_han = han
    return "".join(out)


def simplify_all(texts):
    """OpenCC over many lines at once (one process); a line break never belongs to a phrase."""
    if not texts:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "t2s.json")
        src = os.path.join(tmp, "in.txt")
        dst = os.path.join(tmp, "out.txt")
        with open(cfg, "w", encoding="utf-8") as f:
            json.dump(OPENCC_CONFIG, f)
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(texts) + "\n")
        try:
            subprocess.run(["opencc", "-c", cfg, "-i", src, "-o", dst], check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"make_router_data: opencc failed ({e}); install the Debian package opencc")
        with open(dst, encoding="utf-8") as f:
            out = f.read().split("\n")
    if len(out) < len(texts) or any(out[len(texts):]):
        sys.exit("make_router_data: opencc changed the number of lines")
    return out[: len(texts)]


class Normalizer:
    def __init__(self):
        self.cache = {}

    def prime(self, texts):
        todo = sorted({fold(t) for t in texts if t not in self.cache})
        conv = dict(zip(todo, simplify_all(todo)))
        for t in texts:
            if t not in self.cache:
                self.cache[t] = conv[fold(t)]

    def __call__(self, text):
        if text not in self.cache:
            self.prime([text])
        return self.cache[text]


def split_of(norm_text):
    h = int(hashlib.sha256(norm_text.encode("utf-8")).hexdigest()[:8], 16) % 100
    return "train" if h < 70 else ("dev" if h < 80 else "test")


# ---------------------------------------------------------------------------------------------
# Heuristic dialogue-act labels for external chit-chat (documented in README.md)

GREETING_WORDS = ["你好", "您好", "你们好", "大家好", "哈喽", "哈啰", "嗨", "早上好", "早安", "早",
                  "上午好", "中午好", "下午好", "晚上好", "在吗", "在嘛", "在不在", "有人吗",
                  "有人在吗", "hello", "hi", "hey", "good morning", "good afternoon",
                  "good evening", "喂"]
THANKS_WORDS = ["谢谢", "谢谢你", "谢谢您", "谢谢啦", "多谢", "感谢", "感谢你", "感谢您", "谢了",
                "谢啦", "辛苦了", "辛苦", "thanks", "thank you", "thank u", "thx", "3q"]
GOODBYE_WORDS = ["再见", "拜拜", "拜", "白白", "88", "886", "晚安", "回头见", "明天见", "下次见",
                 "bye", "goodbye", "bye bye", "good night", "see you"]
ACK_WORDS = ["好的", "好", "好吧", "好哒", "好滴", "好嘞", "嗯", "嗯嗯", "恩", "恩恩", "哦", "噢",
             "喔", "ok", "okay", "收到", "明白", "明白了", "知道了", "了解", "懂了", "行", "可以",
             "没问题", "是的", "对", "对的", "👍", "👌", "🆗"]
# Words that carry no act of their own: particles, intensifiers, pronouns of address.
FILLERS = ["啊", "呀", "啦", "哈", "哦", "嘛", "呗", "呢", "吧", "嘞", "咯", "哟", "噢", "喔", "哇",
           "诶", "欸", "了", "非常", "太", "十分", "万分", "你", "您", "亲", "小助手", "呐", "哪",
           "们", "~"]
SOCIAL = [(w, "greeting") for w in GREETING_WORDS] + [(w, "thanks") for w in THANKS_WORDS] + \
         [(w, "goodbye") for w in GOODBYE_WORDS] + [(w, "acknowledgement") for w in ACK_WORDS]
SOCIAL.sort(key=lambda p: -len(p[0]))
FILLERS.sort(key=len, reverse=True)
# When a message holds several social words, the act a reply must answer wins.
ACT_PRIORITY = ["thanks", "goodbye", "greeting", "acknowledgement"]


def is_symbol(ch):
    """Punctuation, symbols, emoji and their modifiers (anything that is not a letter/digit)."""
    cat = unicodedata.category(ch)
    return cat[0] in "PSZ" or cat in ("Cf", "Mn", "Me", "Cc")


# External chit-chat rows about a service the knowledge base does not offer (weather, songs,
# stocks, recipes, horoscopes, games, stories …) are left WITHOUT an act: the chit-chat sets mix
# small talk about these topics (天气好冷, 你会唱歌吗) with requests a voice assistant gets (唱首歌,
# 明天下雨吗), which our own data labels out_of_scope. Neither label is safe for them, so they
# train no head; our own rows teach the difference.
SERVICE_TOPICS = ["天气", "下雨", "下雪", "气温", "多少度", "台风", "降温", "唱", "歌", "股", "基金",
                  "比特币", "彩票", "菜谱", "食谱", "做法", "怎么做", "星座", "运势", "算命", "占卜",
                  "笑话", "故事", "游戏", "玩", "翻译", "电影", "电视剧", "小说", "诗", "推荐", "吃什么",
                  "闹钟", "提醒", "导航", "外卖", "打车", "订票", "机票", "酒店", "旅游", "比赛", "球"]


def heuristic_act(norm_text):
    """'unclear' for symbols only, a social act when every word is a social word, None for a
    service topic (SERVICE_TOPICS), else chit_chat."""
    act = _heuristic_act(norm_text)
    if act == "chit_chat" and any(w in norm_text for w in SERVICE_TOPICS):
        return None
    return act


def _heuristic_act(norm_text):
    s = norm_text
    if all(is_symbol(ch) for ch in s):
        return "unclear"
    found = set()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in "👍👌🆗":
            found.add("acknowledgement")
            i += 1
            continue
        if is_symbol(ch):
            i += 1
            continue
        for w, act in SOCIAL:
            if s.startswith(w, i) and not _inside_ascii_word(s, i, len(w)):
                found.add(act)
                i += len(w)
                break
        else:
            for w in FILLERS:
                if s.startswith(w, i):
                    i += len(w)
                    break
            else:
                return "chit_chat"
    if not found:
        return "chit_chat"
    return next(a for a in ACT_PRIORITY if a in found)


def _inside_ascii_word(s, i, n):
    """True when s[i:i+n] is part of a longer ASCII word ('hi' in 'his')."""
    def word(c):
        return c.isascii() and c.isalnum()
    return (i > 0 and word(s[i - 1]) and word(s[i])) or \
        (i + n < len(s) and word(s[i + n]) and word(s[i + n - 1]))


def lang_of(text, hant=False):
    han = any(is_han(c) for c in text)
    latin = any(c.isascii() and c.isalpha() for c in text)
    if han and latin:
        return "mixed"
    if latin:
        return "en"
    return "zh-Hant" if hant else "zh-Hans"


# ---------------------------------------------------------------------------------------------
# Readers


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def row(text, act, intent=None, category=None, source=None, lang=None, previous=None,
        dependent=None, origin=None):
    r = {"text": text, "act": act, "intent": intent, "category": category, "source": source,
         "lang": lang or lang_of(text)}
    if previous is not None:
        r["previous"] = previous
        r["dependent"] = dependent
    if origin is not None:
        r["origin"] = origin
    return r


def nlpcc(ext, norm):
    d = os.path.join(ext, "xiaomi_nlpcc2023_task9_chitchat")
    rows = []
    with open(os.path.join(d, "datasets_dev.jsonl"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            q = json.loads(line)["query"].strip()
            if q:
                rows.append(row(q, heuristic_act(norm(q)), origin=f"nlpcc2023-task9:dev:{n}"))
    return rows


def tencent(ext, norm):
    path = os.path.join(ext, "tencent_chitchat_prompts", "prompts_unique_desegmented.txt")
    with open(path, encoding="utf-8") as f:
        lines = [(n, l.strip()) for n, l in enumerate(f, 1) if l.strip()]
    # A deterministic, unbiased sample: the prompts with the smallest SHA-256.
    lines.sort(key=lambda p: hashlib.sha256(p[1].encode("utf-8")).hexdigest())
    rows = []
    for n, text in lines[:TENCENT_SAMPLE]:
        rows.append(row(text, heuristic_act(norm(text)), origin=f"tencent-chitchat:line {n}"))
    rows.sort(key=lambda r: int(r["origin"].rsplit(" ", 1)[1]))
    return rows


def chatterbot(ext, norm):
    base = os.path.join(ext, "chatterbot_corpus_zh")
    rows = []
    for sub, hant in (("chinese", False), ("traditionalchinese", True)):
        for name in sorted(os.listdir(os.path.join(base, sub))):
            with open(os.path.join(base, sub, name), encoding="utf-8") as f:
                doc = yaml.safe_load(f)
            for c, conv in enumerate(doc.get("conversations") or []):
                # Even positions are the user side of a conversation.
                for t in range(0, len(conv), 2):
                    text = str(conv[t]).strip()
                    if text and len(text) <= 60:
                        rows.append(row(text, heuristic_act(norm(text)), lang=lang_of(text, hant),
                                        origin=f"chatterbot:{sub}/{name}:{c}:{t}"))
    return rows


def multiwoz(ext):
    """MultiWOZ-zh `val` user turns only (test and human_val stay out of training)."""
    path = os.path.join(ext, "multiwoz_zh_user_acts", "user_turns.tsv")
    rows = []
    acts = {"thank": "thanks", "bye": "goodbye", "greet": "greeting"}
    with open(path, encoding="utf-8", newline="") as f:
        for rec in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if rec["split"] != "val":
                continue
            text = rec["text"].strip()
            if not text:
                continue
            origin = f"multiwoz-zh:val:{rec['dialogue_id']}:{rec['turn']}"
            if rec["only_general"] == "1":
                # Social-only turns. MultiWOZ sometimes tags a turn that also asks for something
                # as thank-only ("谢谢，我能给我联系电话吗？"); a question mark makes it ambiguous,
                # so such turns are left out rather than taught as social.
                if "?" in text or "？" in text:
                    continue
                label = rec["general_label"].split("+")[0]
                rows.append(row(text, acts[label], origin=origin))
            else:
                rows.append(row(text, "question", origin=origin))
    return rows


def paddle(ext):
    path = os.path.join(ext, "paddle_docs_faq_zh", "questions.tsv")
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        for n, rec in enumerate(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE), 2):
            text = rec["question"].strip()
            if text:
                rows.append(row(text, "question", source="it",
                                origin=f"paddle-docs-faq:{rec['file']}:line {n}"))
    return rows


def intune(ext):
    d = os.path.join(ext, "intune_it_helpdesk_zh")
    rows = []
    with open(os.path.join(d, "mam_faq_questions.txt"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                rows.append(row(line.strip(), "question", source="it",
                                origin=f"intune:mam-faq:line {n}"))
    with open(os.path.join(d, "user_help_titles.tsv"), encoding="utf-8", newline="") as f:
        for rec in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if rec["title"].strip():
                rows.append(row(rec["title"].strip(), "question", source="it",
                                origin=f"intune:{rec['path']}"))
    return rows


def chase_c(ext):
    """CHASE-C (MIT) train turns; CHASE-T (CC BY-SA, translated SParC) is not used."""
    path = os.path.join(ext, "chase_context_dependency", "chase_c_turns.jsonl")
    rows = []
    for r in read_jsonl(path):
        if r["subset"] != "CHASE-C" or r["split"] != "train":
            continue
        text = r["utterance"].strip()
        origin = f"chase-c:train:{r['interaction']}:{r['turn']}"
        if r["context"]:
            rows.append(row(text, "question", previous=r["context"][-1].strip(),
                            dependent=bool(r["dependent"]), origin=origin))
        else:
            rows.append(row(text, "question", origin=origin))
    return rows


def followups_dev(norm):
    rows = []
    for r in read_jsonl(os.path.join(ROOT, "tests", "data", "followups.jsonl")):
        if r["split"] != "dev":
            continue
        # The source of a follow-up comes from its history, not from its own words, so the
        # source head does not learn from these rows. act: question (a follow-up or a new question
        # needs retrieval), except the "social" kind (谢谢, 好的, 明白了 after an answer), labelled
        # with the social-word heuristic, or left without an act when the heuristic is unsure.
        act = "question"
        if r["kind"] == "social":
            act = heuristic_act(norm(r["question"]))
            act = None if act == "chit_chat" else act
        rows.append(row(r["question"], act, previous=r["history"][-1],
                        dependent=bool(r["follow_up"]), origin=f"followups:{r['id']}"))
    return rows


def test_table_texts():
    """Questions of the repository's test tables: never in train or dev."""
    texts = []
    data = os.path.join(ROOT, "tests", "data")
    for name in ("trap_questions.jsonl", "category_source.jsonl", "golden_plans.jsonl",
                 "labelled_plans.jsonl", "own_plans.jsonl"):
        texts += [r["question"] for r in read_jsonl(os.path.join(data, name))]
    for r in read_jsonl(os.path.join(data, "followups.jsonl")):
        if r["split"] == "test":
            texts.append(r["question"])
    # The intent-policy gate (eval_sets/intent_policy.json) is a test set too.
    with open(os.path.join(ROOT, "eval_sets", "intent_policy.json"), encoding="utf-8") as f:
        texts += [s["question"] for s in json.load(f)["samples"]]
    return texts


# ---------------------------------------------------------------------------------------------


def dump(rows):
    out = io.StringIO()
    for r in rows:
        out.write(json.dumps(r, ensure_ascii=False) + "\n")
    return out.getvalue()


def ordered(r):
    keys = KEYS + [k for k in ("previous", "dependent", "origin") if k in r]
    return {k: r.get(k) for k in keys}


def build(ext, out_dir):
    norm = Normalizer()
    files = collections.OrderedDict()

    own = {}
    for name in ("own_social.jsonl", "own_questions.jsonl"):
        rows = read_jsonl(os.path.join(out_dir, name))
        for r in rows:
            r.pop("split", None)
            if r["act"] == "question" and r["source"] is None:
                r["source"] = "none"  # own questions are fully labelled: null meant "no domain"
        own[name] = rows
    norm.prime([r["text"] for rows in own.values() for r in rows])

    raw_ext = collections.OrderedDict()
    raw_ext["external/nlpcc2023_chitchat.jsonl"] = nlpcc(ext, norm)
    raw_ext["external/tencent_chitchat.jsonl"] = tencent(ext, norm)
    raw_ext["external/chatterbot_zh.jsonl"] = chatterbot(ext, norm)
    raw_ext["external/multiwoz_zh_val.jsonl"] = multiwoz(ext)
    raw_ext["external/paddle_docs_faq.jsonl"] = paddle(ext)
    raw_ext["external/intune_it.jsonl"] = intune(ext)
    raw_ext["external/chase_c_train.jsonl"] = chase_c(ext)
    dropped_topic = {}
    for name, rows in raw_ext.items():
        kept = [r for r in rows if r["act"] is not None or "previous" in r]
        if len(kept) != len(rows):
            dropped_topic[name] = len(rows) - len(kept)
        raw_ext[name] = kept
    derived = collections.OrderedDict()
    derived["followups_dev.jsonl"] = followups_dev(norm)

    all_texts = [r["text"] for rows in raw_ext.values() for r in rows] + \
                [r.get("previous") or "" for rows in raw_ext.values() for r in rows] + \
                [r["text"] for rows in derived.values() for r in rows] + test_table_texts()
    norm.prime([t for t in all_texts if t])
    test_only = {norm(t) for t in test_table_texts()}

    # Own rows are authoritative: an external row whose text an own row already labels is dropped,
    # and external rows are de-duplicated (first occurrence wins, in the file order above).
    own_acts = {}
    for rows in own.values():
        for r in rows:
            own_acts.setdefault(norm(r["text"]), r["act"])
    stats = collections.Counter()
    for name, k in dropped_topic.items():
        stats[name + " chit-chat on a service topic (no act, dropped)"] += k
    seen = set(own_acts)
    seen_pairs = set()
    for name, rows in raw_ext.items():
        kept = []
        for r in rows:
            key = norm(r["text"])
            if "previous" in r:
                pair = (key, norm(r["previous"]))
                if pair in seen_pairs:
                    stats[name + " duplicate pair"] += 1
                    continue
                seen_pairs.add(pair)
                kept.append(r)
                continue
            if key in seen:
                stats[name + (" same text as an own row" if key in own_acts else " duplicate")] += 1
                continue
            seen.add(key)
            kept.append(r)
        raw_ext[name] = kept

    # Topic switches: a complete own question after an unrelated own question of the same split
    # (another source) does not depend on it.
    questions = [r for r in own["own_questions.jsonl"]]
    by_split = collections.defaultdict(list)
    for r in questions:
        by_split[split_for(norm(r["text"]), test_only)].append(r)
    switches = []
    for i, r in enumerate(questions):
        # A question that names no source (那怎么办, 还有其他注意事项吗) has no topic of its own
        # to switch to: after any turn it continues that turn, so it is no topic switch.
        if i % TOPIC_SWITCH_EVERY or r["source"] == "none":
            continue
        pool = by_split[split_for(norm(r["text"]), test_only)]
        h = int(hashlib.sha256(("prev:" + r["text"]).encode("utf-8")).hexdigest()[:8], 16)
        for k in range(len(pool)):
            cand = pool[(h + k) % len(pool)]
            if cand["source"] != r["source"] and cand is not r:
                switches.append(row(r["text"], None, lang=r["lang"], previous=cand["text"],
                                    dependent=False, origin="topic-switch:own_questions"))
                break
    derived["topic_switches.jsonl"] = switches

    wrapped = []
    for i, r in enumerate(questions):
        if i % WRAP_EVERY != 1:
            continue
        h = int(hashlib.sha256(("wrap:" + r["text"]).encode("utf-8")).hexdigest()[:8], 16)
        prefixes, suffixes = WRAPPERS.get(r["lang"], WRAPPERS["zh-Hans"])
        pre, suf = prefixes[h % len(prefixes)], suffixes[(h // 7) % len(suffixes)]
        style = (h // 97) % 3  # 0 prefix, 1 suffix, 2 both
        text = r["text"]
        if style != 0:
            text = text.rstrip("?？。.!！ ") + suf
        if style != 1:
            if r["lang"] == "en" and not pre.endswith(": "):
                text = text[:1].lower() + text[1:]  # "Hi, how do I …" (case folds away anyway)
            text = pre + text
        w = row(text, "question", r["intent"], r["category"], r["source"], lang=r["lang"],
                origin="social-wrapped:own_questions")
        w["_split_of"] = r["text"]
        wrapped.append(w)
    derived["social_wrapped.jsonl"] = wrapped


    for name, rows in own.items():
        files[name] = rows
    for name, rows in derived.items():
        files[name] = rows
    for name, rows in raw_ext.items():
        files[name] = rows
    norm.prime([r["text"] for r in wrapped])
    for name, rows in files.items():
        for r in rows:
            # A wrapped question takes its own question's split: the two differ only in social
            # words, so they must not sit on both sides of the train/test line.
            base = r.pop("_split_of", r["text"])
            r["split"] = split_for(norm(base), test_only)
            if r["split"] == "test" and norm(r["text"]) in test_only:
                stats["forced to test (text of a test table)"] += 1
        files[name] = [ordered(r) for r in rows]
    return {name: dump(rows) for name, rows in files.items()}, stats


def split_for(norm_text, test_only):
    return "test" if norm_text in test_only else split_of(norm_text)


LICENSES = [
    ("xiaomi_nlpcc2023_task9_chitchat/README.md", "nlpcc2023-task9-README.md"),
    ("xiaomi_nlpcc2023_task9_chitchat/CITATION.cff", "nlpcc2023-task9-CITATION.cff"),
    ("tencent_chitchat_prompts/tencent_corpus_readme.txt", "tencent-chitchat-readme.txt"),
    ("tencent_chitchat_prompts/REPO_LICENSE_Apache-2.0.txt", "tencent-chitchat-extraction-LICENSE-Apache-2.0.txt"),
    ("chatterbot_corpus_zh/license.md", "chatterbot-corpus-LICENSE-BSD-3-Clause.md"),
    ("multiwoz_zh_user_acts/CONVLAB2_LICENSE_Apache-2.0.txt", "convlab2-LICENSE-Apache-2.0.txt"),
    ("multiwoz_zh_user_acts/README_multiwoz_zh.md", "multiwoz-zh-README.md"),
    ("paddle_docs_faq_zh/LICENSE", "paddle-docs-LICENSE-Apache-2.0.txt"),
    ("intune_it_helpdesk_zh/LICENSE", "intune-docs-LICENSE-CC-BY-4.0.txt"),
    ("intune_it_helpdesk_zh/LICENSE-CODE", "intune-docs-LICENSE-CODE-MIT.txt"),
    ("chase_context_dependency/LICENSE", "chase-LICENSE-MIT.txt"),
]


def fingerprints(files):
    entries = {name: hashlib.sha256(content.encode("utf-8")).hexdigest()
               for name, content in sorted(files.items())}
    return json.dumps({"format": "qaplan-router-data-1", "files": entries}, indent=2,
                      ensure_ascii=False) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--external", default=os.path.join(os.path.dirname(ROOT), "shared", "external"))
    ap.add_argument("--out", default=os.path.join(ROOT, "eval_sets", "router"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not os.path.isdir(args.external):
        print(f"make_router_data: no external data folder {args.external}", file=sys.stderr)
        return 2
    files, stats = build(args.external, args.out)
    files_fp = dict(files)
    outputs = dict(files)
    outputs["fingerprints.json"] = fingerprints(files_fp)
    if args.check:
        bad = [n for n, c in outputs.items()
               if not os.path.exists(os.path.join(args.out, n))
               or open(os.path.join(args.out, n), encoding="utf-8").read() != c]
        for n in bad:
            print(f"make_router_data: {n} differs from a fresh build", file=sys.stderr)
        return 1 if bad else 0
    os.makedirs(os.path.join(args.out, "external", "licenses"), exist_ok=True)
    for name, content in outputs.items():
        path = os.path.join(args.out, name)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(content)
        os.replace(tmp, path)
    for src, dst in LICENSES:
        shutil.copyfile(os.path.join(args.external, src),
                        os.path.join(args.out, "external", "licenses", dst))
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}", file=sys.stderr)
    for name, content in outputs.items():
        if name.endswith(".jsonl"):
            print(f"{name}: {content.count(chr(10))} rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
