# ruff: noqa: E501  (listings are quoted verbatim, long lines included)
"""The code each row of the Heatmap page's Frameworks table reproduces: the listings of
the seeds and of the peers' own tutorials, as they were written (``n = 10000`` fixed).

``tests/features/heatmap/test_framework_code.py`` runs the numpy listings against ``posenc`` and checks
the torch ones statement by statement against ``tests/peers/make_peer_values.py``, the
code the peer values were computed with.
"""

from __future__ import annotations

SEED_004 = """\
def getPositionEncoding(seq_len, d, n=10000):
    P = np.zeros((seq_len, d))
    for k in range(seq_len):
        for i in np.arange(int(d/2)):
            denominator = np.power(n, 2*i/d)
            P[k, 2*i] = np.sin(k/denominator)
            P[k, 2*i+1] = np.cos(k/denominator)
    return P
"""

SEED_003 = """\
positional_encoding = np.zeros((sequence_length, d_model))
for pos in range(sequence_length):
    for i in range(d_model):
        if i % 2 == 0:
            positional_encoding[pos, i] = np.sin(pos / (10000 ** (i / d_model)))
        else:
            positional_encoding[pos, i] = np.cos(pos / (10000 ** ((i - 1) / d_model)))
"""

SEED_002 = """\
def get_position_angle_vec(position):
    return [position / np.power(10000, 2 * (hid_j // 2) / hidden_dim) for hid_j in range(hidden_dim)]

position_angle_vecs = np.array([get_position_angle_vec(pos_i) for pos_i in range(seq_len)])
position_angle_vecs[:, 0::2] = np.sin(position_angle_vecs[:, 0::2])  # dim 2t
position_angle_vecs[:, 1::2] = np.cos(position_angle_vecs[:, 1::2])  # dim 2t+1
"""

TORCH_TUTORIAL = """\
class PositionalEncoding(nn.Module):
    "Implement the PE function."

    def __init__(self, d_model, dropout, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)

        # Compute the positional encodings once in log space.
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) *
                             -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer('pe', pe)
"""

TF_TUTORIAL = """\
def positional_encoding(length, depth):
    depth = depth/2

    positions = np.arange(length)[:, np.newaxis]     # (seq, 1)
    depths = np.arange(depth)[np.newaxis, :]/depth   # (1, depth)

    angle_rates = 1 / (10000**depths)         # (1, depth)
    angle_rads = positions * angle_rates      # (pos, depth)

    pos_encoding = np.concatenate(
        [np.sin(angle_rads), np.cos(angle_rads)],
        axis=-1)

    return tf.cast(pos_encoding, dtype=tf.float32)
"""

TF_OLD_TUTORIAL = """\
def get_angles(pos, i, d_model):
    angle_rates = 1 / np.power(10000, (2 * (i//2)) / np.float32(d_model))
    return pos * angle_rates

def positional_encoding(position, d_model):
    angle_rads = get_angles(np.arange(position)[:, np.newaxis],
                            np.arange(d_model)[np.newaxis, :],
                            d_model)

    # apply sin to even indices in the array; 2i
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])

    # apply cos to odd indices in the array; 2i+1
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])

    pos_encoding = angle_rads[np.newaxis, ...]

    return tf.cast(pos_encoding, dtype=tf.float32)
"""

T2T_NUMPY = """\
def get_timing_signal_1d(length, channels, min_timescale=1.0, max_timescale=1.0e4,
                         start_index=0):
    position = np.arange(length, dtype=np.float64) + start_index
    num_timescales = channels // 2
    log_timescale_increment = (
        math.log(float(max_timescale) / float(min_timescale)) / max(num_timescales - 1, 1))
    inv_timescales = min_timescale * np.exp(
        np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    signal = np.pad(signal, [[0, 0], [0, channels % 2]])
    return signal
"""

FAIRSEQ = """\
def get_embedding(num_embeddings, embedding_dim, padding_idx):
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim, dtype=torch.int64).float() * -emb)
    emb = torch.arange(num_embeddings, dtype=torch.int64).float().unsqueeze(1) * emb.unsqueeze(0)
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
    if embedding_dim % 2 == 1:
        # zero pad
        emb = torch.cat([emb, torch.zeros(num_embeddings, 1)], dim=1)
    if padding_idx is not None:
        emb[padding_idx, :] = 0
    return emb
"""

# Framework -> (text key of the source, listing); several listings build the same table.
LISTINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "paper": (("code_gentle", SEED_004), ("code_evolution", SEED_003)),
    "torch32": (("code_torch", TORCH_TUTORIAL),),
    "tf": (("code_tf", TF_TUTORIAL),),
    "tf_old": (("code_tf_old", TF_OLD_TUTORIAL), ("code_rope_article", SEED_002)),
    "t2t": (("code_t2t", T2T_NUMPY),),
    "fairseq": (("code_fairseq", FAIRSEQ),),
}
