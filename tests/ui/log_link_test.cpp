// Links to line ranges: both forms a user copies, and everything else.
#include "relayhud/ui/logs/log_link.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

LogLink link(const char* path, std::uint64_t first, std::uint64_t last)
{
    return {QString::fromUtf8(path), LineNumber::fromShown(first), LineNumber::fromShown(last)};
}

} // namespace

TEST(LogLink, UrlFormPercentEncodesThePathAndParsesBack)
{
    const LogLink l = link("/home/me/CI logs/job #3 & 50%+ü.log", 120, 135);
    const QString url = logLinkUrl(l);
    EXPECT_EQ(url, u"relayhud://log?path=/home/me/CI%20logs/job%20%233%20%26%2050%25%2B%C3%BC.log"
                   u"&lines=120-135"_qs);
    EXPECT_EQ(parseLogLink(url), l);
    EXPECT_EQ(parseLogLink(u"  "_qs + url + u"\n"_qs), l) << "pasted with spaces";
}

TEST(LogLink, UrlFormWithOneLineAndEncodedSlashes)
{
    EXPECT_EQ(logLinkUrl(link("/tmp/a.log", 7, 7)), u"relayhud://log?path=/tmp/a.log&lines=7"_qs);
    EXPECT_EQ(parseLogLink(u"relayhud://log?path=%2Ftmp%2Fa.log&lines=7"_qs),
              link("/tmp/a.log", 7, 7));
    EXPECT_EQ(parseLogLink(u"RELAYHUD://log?lines=3-4&path=/x.log"_qs), link("/x.log", 3, 4))
        << "any order of the query, any case of the scheme";
}

TEST(LogLink, PlainFormsParse)
{
    EXPECT_EQ(logLinkPlain(link("/tmp/a.log", 3, 9)), u"/tmp/a.log:3-9"_qs);
    EXPECT_EQ(logLinkPlain(link("/tmp/a.log", 4, 4)), u"/tmp/a.log:4"_qs);
    EXPECT_EQ(parseLogLink(u"/tmp/a.log:3-9"_qs), link("/tmp/a.log", 3, 9));
    EXPECT_EQ(parseLogLink(u"/tmp/a.log:12"_qs), link("/tmp/a.log", 12, 12));
    EXPECT_EQ(parseLogLink(u"logs/job:1.log:5"_qs), link("logs/job:1.log", 5, 5))
        << "the last colon starts the lines";
    EXPECT_EQ(parseLogLink(u"/tmp/a.log:9-3"_qs), link("/tmp/a.log", 3, 9)) << "put in order";
}

TEST(LogLink, BadInputIsRejected)
{
    for (const QString& bad :
         {u""_qs, u"job.log"_qs, u"/tmp/a.log:"_qs, u":12"_qs, u"/tmp/a.log:0"_qs,
          u"/tmp/a.log:0-4"_qs, u"/tmp/a.log:x"_qs, u"/tmp/a.log:3-"_qs, u"/tmp/a.log:-3"_qs,
          u"/tmp/a.log:1-2-3"_qs, u"/tmp/a.log:99999999999999999999"_qs,
          u"relayhud://log?path=%2Fx.log"_qs, u"relayhud://log?lines=3"_qs,
          u"relayhud://log?path=&lines=3"_qs, u"relayhud://log?path=/x.log&lines=0"_qs,
          u"relayhud://other?path=/x.log&lines=3"_qs, u"http://log?path=/x.log&lines=3"_qs,
          u"relayhud://log?path=/x.log&lines=abc"_qs})
        EXPECT_EQ(parseLogLink(bad), std::nullopt) << bad.toStdString();
}
