// Performance outputs: nccl-tests logs fed in chunks whose sizes come from the input (so every split
// of lines and CRLF pairs is reached) and scored; AIPerf / GenAI-Perf / inference-perf reports. The
// first byte picks the kind.
#include "FuzzUtil.h"

#include "validation/Inference.h"
#include "validation/Nccl.h"
#include "validation/Score.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2)
        return 0;
    const uint8_t selector = data[0];
    const QByteArray in = pbfuzz::bytes(data + 1, size - 1);
    using namespace pb::validation;
    if (selector % 5 == 0) {
        NcclParser parser;
        qsizetype pos = 0;
        const qsizetype step = 1 + (selector >> 3); // 1..32-byte chunks
        while (pos < in.size()) {
            const qsizetype n = std::min(step + (pos % 7), in.size() - pos);
            parser.feed(QByteArrayView(in.constData() + pos, n));
            pos += n;
        }
        const NcclResult r = parser.finish();
        std::vector<pb::catalog::Constraint> constraints(1);
        constraints[0].name = QStringLiteral("nccl-all-reduce-bw-nvls");
        constraints[0].value = QStringLiteral(">= 300 GB/s");
        (void)scoreNccl(QStringLiteral("nccl-all-reduce-bw-nvls"), r, constraints);
        return 0;
    }
    const PerfKind kinds[] = {PerfKind::AIPerf, PerfKind::GenAIPerf, PerfKind::InferencePerf,
                              PerfKind::AIPerf};
    const PerfKind kind = kinds[selector % 4];
    if (selector % 5 == 4) {
        if (std::optional<QByteArray> block = extractAiperfBlock(in))
            (void)parseInference(*block, PerfKind::AIPerf, QStringLiteral("log"));
        return 0;
    }
    pb::Result<InferenceResult> r = parseInference(in, kind, QStringLiteral("report"));
    if (r) {
        std::vector<pb::catalog::Constraint> constraints(2);
        constraints[0].name = QStringLiteral("inference-throughput");
        constraints[0].value = QStringLiteral(">= 5000");
        constraints[1].name = QStringLiteral("inference-ttft-p99");
        constraints[1].value = QStringLiteral("<= 2000");
        (void)scoreInference(QStringLiteral("inference-perf"), *r, constraints, 0.5);
    }
    return 0;
}
