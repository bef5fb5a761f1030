"""Learn word classes from unlabeled text, for `skbioner train --word-classes FILE`.

TEXT is one or more files of unlabeled sentences, one per line, tokens separated
by spaces (tokenized as the training corpus is: `skbioner convert` or the
BioTokenizer; .gz is read through gzip).  Two representations are fitted and
written side by side in one table (a TSV file, compressed when OUT ends in .gz):

  * Brown clusters (--brown N leaf clusters; 0: none): each word's bit string,
    read by the features as prefixes of 4, 6, 10 and 20 bits;
  * k-means classes of PPMI-SVD word embeddings (--embedding K1,K2,...; empty:
    none), one column per granularity.

Words are lower-cased with digits as 0 before counting and look-up
(--normalize), and words seen fewer than --min-count times get no class.  The
package ships a table fitted on 10.8M tokens of CC BY life-science text
(`skbioner train --word-classes` without FILE reads it).  Fitting takes minutes
(10.8M tokens, N=256: about 1.5 minutes of one core for the Brown clusters and
as much for the embeddings; the Brown clusters' cost grows with N^2 per word);
progress on stderr (-q: none).
"""

import sys
import time

NAME = "clusters"
HELP = "learn word classes (Brown clusters, embedding k-means) from unlabeled text"


def add_arguments(p):
    p.add_argument("text", nargs="+", metavar="TEXT",
                   help="unlabeled sentences, one per line, tokens separated by spaces")
    p.add_argument("-o", "--output", required=True, metavar="CLASSES.tsv[.gz]")
    p.add_argument("--brown", type=int, default=256, metavar="N",
                   help="Brown clusters (leaves of the tree; 0: no Brown clusters)")
    p.add_argument("--embedding", default="64,256,1024", metavar="K,...",
                   help="k-means granularities of the embedding classes ('': none)")
    p.add_argument("--dimensions", type=int, default=100, help="embedding dimensions")
    p.add_argument("--window", type=int, default=2,
                   help="context words on each side for the embeddings")
    p.add_argument("--min-count", type=int, default=3)
    p.add_argument("--normalize", choices=("none", "lower", "lower-digits"),
                   default="lower-digits")
    p.add_argument("--note", action="append", default=[], metavar="TEXT",
                   help="a comment line for the table's header (source, licence)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def run(args):
    from ..annotate import BrownClusterer, EmbeddingClusterer
    from ..io import read_tokenized, write_word_classes
    from ._paths import refuse_output_over_inputs

    refuse_output_over_inputs(args.output, args.text)
    ks = tuple(int(k) for k in args.embedding.split(",") if k.strip())
    if not args.brown and not ks:
        raise ValueError("nothing to fit: give --brown N or --embedding K,...")
    say = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    t0 = time.perf_counter()
    sentences = [s for path in args.text for s in read_tokenized(path)]
    say(f"read {len(sentences):,} sentences, {sum(map(len, sentences)):,} tokens "
        f"({time.perf_counter() - t0:.1f} s)")
    verbose = 0 if args.quiet else 1
    tables = []
    if args.brown:
        tables.append(BrownClusterer(args.brown, min_count=args.min_count,
                                     normalize=args.normalize, verbose=verbose).fit(sentences))
    if ks:
        tables.append(EmbeddingClusterer(ks, n_components=args.dimensions, window=args.window,
                                         min_count=args.min_count, normalize=args.normalize,
                                         random_state=0, verbose=verbose).fit(sentences))
    notes = [f"fitted by skbioner clusters on {', '.join(args.text)}", *args.note]
    write_word_classes(args.output, tables, normalize=args.normalize, notes=notes)
    n_words = len({w for t in tables for w in t.words_.tolist()})
    say(f"wrote {args.output}: {n_words:,} words, columns "
        f"{', '.join(c for t in tables for c in t.columns_)} "
        f"({time.perf_counter() - t0:.0f} s)")
    return 0
