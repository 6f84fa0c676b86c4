/**
 * Words of the demo datasets: AI answer platforms, brands, media, titles and word-cloud terms. All
 * brand names are invented; media and platform names are the ones a Chinese reader expects.
 */

export interface AiPlatform {
  key: string;
  /** `DATA.meta.platforms[i].name`. */
  name: string;
  /** HTML column header; shorter than the platform's name for columns 3 to 5 (spec 7.6). */
  shortName?: string;
  /** The platform screen's column name, used in competitor `platform_rates[i].name`. */
  platformName: string;
}

export const AI_PLATFORMS: readonly AiPlatform[] = [
  { key: 'doubao', name: '豆包', platformName: '豆包' },
  { key: 'deepseek', name: 'DeepSeek', platformName: 'DeepSeek' },
  { key: 'kimi', name: 'Kimi', shortName: 'Kimi', platformName: 'Kimi 智能助手' },
  { key: 'yuanbao', name: '腾讯元宝', shortName: '元宝', platformName: '腾讯元宝' },
  { key: 'qianwen', name: '通义千问', shortName: '千问', platformName: '通义千问' },
  { key: 'wenxin', name: '文心一言', platformName: '文心一言' },
];

/** Media names (spec 7.5), also the channels of related sources (7.8). */
export const MEDIA_NAMES: readonly string[] = [
  '知乎',
  '什么值得买',
  '搜狐',
  '网易',
  '百家号',
  '今日头条',
  '新浪科技',
  '腾讯新闻',
  '中关村在线',
  'IT之家',
  '小红书',
  '哔哩哔哩',
  '太平洋科技',
  '凤凰网',
];

export const MEDIA_HOSTS: Record<string, string> = {
  知乎: 'zhuanlan.zhihu.com',
  什么值得买: 'post.smzdm.com',
  搜狐: 'www.sohu.com',
  网易: 'www.163.com',
  百家号: 'baijiahao.baidu.com',
  今日头条: 'www.toutiao.com',
  新浪科技: 'tech.sina.com.cn',
  腾讯新闻: 'news.qq.com',
  中关村在线: 'www.zol.com.cn',
  IT之家: 'www.ithome.com',
  小红书: 'www.xiaohongshu.com',
  哔哩哔哩: 'www.bilibili.com',
  太平洋科技: 'www.pconline.com.cn',
  凤凰网: 'tech.ifeng.com',
};

/** Media types (spec 7.4): ten named types; 「其他」 and 「未知」 are added by the dataset. */
export const MEDIA_CATEGORIES: readonly string[] = [
  '垂直媒体',
  '综合门户',
  '社交平台',
  '问答社区',
  '视频平台',
  '电商平台',
  '品牌官网',
  '新闻客户端',
  '百科',
  '自媒体',
];

/** Content types (spec 7.3): ten, so the legend (at most 8) has something to cut. */
export const CONTENT_TYPES: readonly string[] = [
  '测评',
  '资讯',
  '问答',
  '选购指南',
  '用户口碑',
  '榜单',
  '百科',
  '视频解说',
  '新闻稿',
  '论坛帖子',
];

/** Publish time buckets (spec 7.3); 「无时间」 is added by the dataset where a scenario wants it. */
export const PUBLISH_TIMES: readonly string[] = ['近7天', '近30天', '近3个月', '近半年', '近1年', '1年以上'];

export const NO_TIME = '无时间';
export const OTHER = '其他';
export const UNKNOWN = '未知';

/** A product domain: the vocabulary of one report. */
export interface Domain {
  category: string;
  features: readonly string[];
  models: readonly string[];
  competitors: readonly string[];
  words: readonly string[];
  positive: readonly string[];
  negative: readonly string[];
}

export const DOMAINS = {
  purifier: {
    category: '空气净化器',
    features: ['除甲醛', 'CADR值', '静音', '滤网寿命', '除菌', '智能联动'],
    models: ['Q7', 'Pro Max', 'S3', 'X9', 'Air 2'],
    competitors: [
      '澄风',
      '森氧科技',
      '蓝岸',
      '云舒',
      '沐光',
      '悦净',
      '禾风',
      '极岚',
      '安屿电器',
      '青川',
      '素白',
      '北辰',
    ],
    words: [
      '除甲醛',
      'CADR',
      '静音',
      '滤网',
      '母婴',
      '宠物毛发',
      '新房',
      '雾霾',
      '能效',
      '智能控制',
      '性价比',
      '噪音',
      '耗材',
      '除菌率',
      '颗粒物',
      '卧室',
      '客厅',
      '售后',
      '口碑',
      '颜值',
      '传感器',
      '睡眠模式',
      '异味',
      'HEPA',
      '负离子',
      '数据透明',
      '质保',
      '大面积',
    ],
    positive: [
      '净化快',
      '安静',
      '颜值高',
      '操作简单',
      '滤网耐用',
      '数据准',
      '售后靠谱',
      '适合母婴',
      '性价比高',
    ],
    negative: ['滤网贵', '噪音偏大', '有异味', '体积大'],
  },
  coffee: {
    category: '咖啡机',
    features: ['萃取压力', '奶泡', '研磨', '清洁', '预热速度', '胶囊兼容'],
    models: ['M1', 'Barista 5', 'C20', 'Mini', 'Pro'],
    competitors: [
      '啡语',
      '豆匠',
      '晨研',
      '慢焙',
      '醇境',
      '拾光咖啡',
      '岩烧',
      '白鹭',
      '栗山',
      '暖阳电器',
      '木子',
      '青禾',
    ],
    words: [
      '意式浓缩',
      '奶泡',
      '研磨',
      '萃取',
      '拿铁',
      '美式',
      '胶囊',
      '清洁',
      '预热',
      '办公室',
      '新手',
      '性价比',
      '颜值',
      '噪音',
      '油脂',
      '豆仓',
      '水箱',
      '手冲',
      '全自动',
      '半自动',
      '温控',
      '口感',
      '售后',
      '耗材',
    ],
    positive: ['出品稳定', '奶泡细腻', '上手简单', '好清洁', '颜值高', '口感醇厚', '性价比高'],
    negative: ['噪音大', '漏水', '预热慢'],
  },
  fridge: {
    category: '冰箱',
    features: ['保鲜', '风冷无霜', '能耗', '容量', '嵌入式', '除菌'],
    models: ['Q9', 'S7', 'T500', 'Max 600', 'Pro'],
    competitors: ['极光', '海图', '曜石', '锐视', '青松', '长空', '远景', '云帆'],
    words: [
      '保鲜',
      '风冷',
      '无霜',
      '嵌入',
      '十字门',
      '能效',
      '静音',
      '容量',
      '母婴',
      '干湿分储',
      '除菌',
      '控温',
      '颜值',
      '售后',
      '性价比',
      '智能互联',
      '冷冻',
      '变频',
      '超薄',
      '口碑',
    ],
    positive: ['保鲜好', '安静', '空间大', '省电', '颜值高', '做工扎实', '售后及时'],
    negative: ['噪音', '结霜', '门封不严'],
  },
  tv: {
    category: '电视',
    features: ['Mini LED', '刷新率', '护眼', '音画', '系统流畅', '游戏模式'],
    models: ['X9 Pro', 'S7', 'Q10', 'E8', 'V75'],
    competitors: ['极光', '海图', '曜石', '锐视', '青松', '长空', '远景', '云帆'],
    words: [
      'Mini LED',
      '高刷',
      '护眼',
      '画质',
      '音质',
      '游戏',
      '系统',
      '广告',
      '开机速度',
      '大屏',
      '性价比',
      '峰值亮度',
      '分区控光',
      '投屏',
      '遥控器',
      '售后',
      '挂架',
      '颜值',
      '语音助手',
      '儿童模式',
    ],
    positive: ['画质细腻', '无开机广告', '流畅', '亮度高', '音效好', '护眼舒适', '性价比高'],
    negative: [],
  },
} as const satisfies Record<string, Domain>;

export type DomainKey = keyof typeof DOMAINS;

/** Title templates of related sources: {c} category, {b}/{b2} brands, {m} model, {f} feature, {n} a number. */
export const TITLE_TEMPLATES: readonly string[] = [
  '2025年{c}选购指南：{b}、{b2}等{n}款热门型号横评',
  '{b}{m}深度评测：{f}表现到底如何？',
  '{c}怎么选？看完这篇不踩坑（{f}篇）',
  '实测{n}款{c}，{f}差距竟然这么大',
  '{b}和{b2}哪个好？一文讲清{c}的区别',
  '{c}十大品牌排行榜（{n}月最新）',
  '用了三个月的{b}{c}，说说真实感受',
  '{f}真的有用吗？{c}选购常见误区盘点',
  '双十一{c}值得买清单：{b}、{b2}入选',
  '{b}发布新一代{c}{m}，主打{f}',
  '家里有老人小孩，{c}该怎么挑？{f}最关键',
  '{c}{f}对比：{b} vs {b2}',
  '{b}{m}拆机：做工与{f}细节一览',
  '预算三千元，{c}买{b}还是{b2}？',
  '{c}行业观察：{f}成为新卖点',
];
