# SPDX-FileCopyrightText: 2026 pisti developers
# SPDX-License-Identifier: MIT
"""
`pisti_app.texts.rules_tr`
==========================

Kurallar (the rules pages in Turkish), the same pages as ``rules_en``.
"""

PISTI = (
    ("Pişti: amaç",
     "İki oyuncu, ya da karşılıklı ortaklarla iki takım halinde dört oyuncu. "
     "Yerdeki kartları alarak puan toplanır. Oyun 101 ya da 151 puana "
     "oynanır."),
    ("Pişti: dağıtım",
     "Ortaya dört kart konur, yalnız en üstteki açıktır. Herkese dört kart "
     "verilir; eller bitince deste bitene kadar dörder kart daha dağıtılır. "
     "Destenin en alttaki kartı herkese gösterilir."),
    ("Pişti: oyun",
     "Sırayla yere bir kart atılır. Üstteki kartla aynı sayıda bir kart ya da "
     "herhangi bir Vale yerdeki bütün kartları alır. Kapalı orta kartlar "
     "yeri ilk alan tarafa gider."),
    ("Pişti: pişti",
     "Yerde tek kart varken aynı sayıyla almak piştidir: 10 puan. Tek "
     "Valeyi Valeyle almak Vale piştisidir: 20. Elin son kartı pişti "
     "yapmaz. Son alan, yerde kalan kartları da alır."),
    ("Pişti: puanlar",
     "Her As 1, her Vale 1, 2\u2663 2, 10\u2666 3, en çok kart 3 (eşitlikte "
     "kimse almaz), pişti 10, Vale piştisi 20. Hedefe ulaşan taraf diğerinden "
     "çok puanlıysa kazanır."),
)

_YEDILI = (
    ("Pis Yedili: amaç",
     "2-4 oyuncu, herkes kendi için. Kartlarını ilk bitiren eli kazanır, "
     "diğerleri ceza puanı yazar. Biri 101'e ulaşınca en düşük toplam "
     "kazanır."),
    ("İlk tur",
     "Herkesin ilk sırası: düz bir sinek oynanır (J, 7, 10, A olmaz). "
     "Düz sineği olmayan, bulana kadar kart çeker."),
    ("Oyun",
     "Üstteki kartın rengiyle ya da sayısıyla aynı bir kart, ya da Vale "
     "oynanır. İstersen bir kart çekersin; sonra uyan bir kart oynar ya da "
     "pas geçersin."),
    ("Özel kartlar",
     "7: sıradaki 3 kart çeker, ya da o da 7 atar (6, 9 ...). Vale: her "
     "şeyin üstüne gider (7'ye karşılık hariç), renk söylenir. As: diğer "
     "herkes bir kart çeker, sen yine oynarsın. 10: 3-4 kişide sıra bir tur "
     "geri döner. Eş kart: aynı kartın üstüne atılırsa yine oynarsın."),
    ("Cezalar",
     "Kartı biten eli kazanır. Diğerleri kartlarını sayar: 2-10 üstündeki "
     "kadar, Q ve K 10, A 11, J 25; son kart Vale ise iki katı, 7 ise üç "
     "katı. Deste biterse el kazanansız biter."),
    ("Muamele",
     "Kazanan varsa, diğer oyuncular elindeki her 7 için desteden 3 kapalı "
     "kart seçer; seçilen her 7 üç seçim daha verir. Seçilen kartlar cezaya "
     "eklenir."),
)

# The last page, about the buttons: six-button build, three buttons.
YEDILI = _YEDILI + (
    ("Bu cihazda",
     "\u25c0\u25b6 kart seç, A oyna. \u25b2 (ya da elin sonundan öteye) Çek ve "
     "Pas düğmesine gider. Vale renk sorar. Oynanamayan kart nedenini "
     "söyler."),
)

YEDILI_3 = _YEDILI + (
    ("Bu cihazda",
     "A ve C kart seçer, B oynar. Çek ve Pas elin iki ucunun ötesindedir. "
     "Vale renk sorar. Oynanamayan kart nedenini söyler."),
)

BUTTONS_6 = (
    ("Tuşlar",
     "\u25c0 \u25b6 imleci taşır. \u25b2 \u25bc menüde gezinir; \u25c0 \u25b6 değeri "
     "değiştirir, A onaylar: Ayarlar saklanır, Yeni oyun başlar. A seçer ya "
     "da oynar. B geri gider; masada B ya da B'ye "
     "uzun basmak oyun menüsünü açar. Pis Yedili'de \u25b2 Çek ve Pas'a gider."),
)

BUTTONS_3 = (
    ("Tuşlar",
     "A ve C imleci taşır, B seçer ya da oynar, B'ye uzun basmak geri gider "
     "ve masada oyun menüsünü açar. Menüde B bir değeri ayarlamaya açar: A "
     "ve C değiştirir, B onaylar (Ayarlar saklanır, Yeni oyun başlar), B'ye "
     "uzun basmak ayarı bitirir. Pis Yedili'de Çek ve Pas elin iki "
     "ucundadır."),
)
