"""Exemplar phrases for the intent router's embedding layer (data only).

Each intent gets short, varied phrasings; the router embeds them once and labels a message
with the intent of its nearest exemplar when that is close enough. The "question" bank holds
document-style questions from many domains: they are never a reason to label a message, they
are the competition an off-topic match must clearly beat, so a genuine question about the
documents is not turned away for sounding like small talk.
"""

from __future__ import annotations

from collections.abc import Mapping

GREETING = (
    "hello",
    "hi there",
    "hey, how's it going?",
    "good afternoon",
    "good evening to you",
    "howdy",
    "yo, what's up",
    "hiya, nice to meet you",
    "greetings!",
    "morning! how are you doing today?",
    "hello, anybody there?",
    "hey assistant",
)

GRATITUDE = (
    "thank you so much",
    "thanks, that helps",
    "much appreciated",
    "great, thanks for the help",
    "awesome, that answers my question",
    "perfect, that's exactly what I was looking for",
    "cheers mate",
    "thx",
    "ok thanks, bye",
    "that was really helpful, thank you",
    "I appreciate it",
    "brilliant, that's all for now",
)

OFF_TOPIC = (
    # general knowledge and trivia
    "What is the capital city of Canada?",
    "Which country has the largest land area?",
    "How tall is Mount Everest?",
    "What's the population of Brazil?",
    "Who was the first president of the United States?",
    "Who painted the Mona Lisa?",
    "What's the longest river on Earth?",
    "What language do they speak in Argentina?",
    # people and celebrities
    "How old is Taylor Swift?",
    "Who is the richest person in the world?",
    "Who played the lead role in Titanic?",
    "Is Beyoncé married?",
    # sports and news
    "Who won the football world cup in 2018?",
    "What's the score of the basketball game?",
    "When do the Lakers play next?",
    "Which team will win the championship this year?",
    "What's in the news today?",
    "Who is going to win the next election?",
    # weather
    "What's the weather going to be like tomorrow?",
    "Will it rain this weekend in London?",
    "How hot is it outside right now?",
    # food, restaurants and cooking
    "Can you suggest a nice restaurant nearby?",
    "Where can I get good sushi around here?",
    "How do I bake a chocolate cake?",
    "What should I cook for dinner tonight?",
    "Give me a recipe for banana bread",
    "What's the best coffee shop in town?",
    # entertainment and shopping
    "Recommend me a movie to watch tonight",
    "What are some good books to read this summer?",
    "Which video game should I play next?",
    "What's a good gift for my girlfriend?",
    "Which laptop should I buy?",
    "What is the price of bitcoin today?",
    "What's the dollar to yen exchange rate?",
    # travel and errands
    "Where should I go on holiday in Europe?",
    "Book me a hotel in Rome",
    "Order me a taxi to the airport",
    "Set an alarm for 7am",
    # the assistant itself and chit-chat
    "Tell me a joke",
    "Write me a poem about the sea",
    "Sing me a song",
    "What is the meaning of life?",
    "Do you have feelings?",
    "What's your favourite colour?",
    "Are you a human or a robot?",
    "Do you like music?",
    "What's your zodiac sign?",
    "Can you give me dating advice?",
)

SIMPLIFY = (
    "can you explain that more simply?",
    "say it in plain English",
    "I didn't understand that",
    "that's too complicated for me",
    "break it down for a beginner",
    "explain it to me like I'm a child",
    "put that in layman's terms",
    "dumb it down please",
    "that's over my head",
    "could you unpack that in everyday words?",
    "what does that mean in plain words?",
)

DEEPEN = (
    "can you go into more detail?",
    "give me the technical details",
    "expand on that please",
    "I want a more in-depth explanation",
    "dig deeper into that",
    "what else should I know about it?",
    "keep going",
    "more please",
)

FOLLOWUP = (
    "what about the other one?",
    "and what happens after that?",
    "why is that?",
    "how so?",
    "can you give an example of that?",
    "does that also apply here?",
    "what does it return then?",
    "and the default?",
)

QUESTION = (
    # software and operations
    "What does the function return when the list is empty?",
    "How do I configure the connection timeout?",
    "What is the default value of the maxsize parameter?",
    "How can I read a file line by line in Python?",
    "Which command lists the running processes on Linux?",
    "How do I change file permissions with chmod?",
    "What is the difference between a process and a thread?",
    "How do I create an index on a table in PostgreSQL?",
    "What isolation level does the database use by default?",
    "How do I roll back a failed migration?",
    "What port does the server listen on?",
    "How do I set an environment variable for the service?",
    "What happens when the cache is full?",
    "Which exception is raised when the key is missing?",
    "Which method should I override to customise the behaviour?",
    "How is the encryption key stored?",
    "What are the system requirements for installation?",
    "How does the scheduler decide which task runs next?",
    "How do I upgrade to the latest version?",
    "What is the maximum file size for uploads?",
    "How long are backups kept?",
    "What are the steps to deploy the application?",
    "Which library does the guide recommend for parsing dates?",
    # workplace policies and handbooks
    "How many vacation days do new employees get?",
    "What is the policy on working from home?",
    "How do I submit an expense report?",
    "Who do I contact about payroll questions?",
    "What is the notice period for resignation?",
    "Which meals can be claimed on a business trip?",
    "Are hotel costs covered by the travel policy?",
    "What does the code of conduct say about gifts from clients?",
    "Which holidays does the company observe?",
    "Who organises the annual team event?",
    # manuals, reports, contracts, guides
    "How do I reset the device to factory settings?",
    "What does the warning light on the front panel mean?",
    "What is the recommended dosage for adults?",
    "What are the side effects listed in the leaflet?",
    "What does clause 7 of the contract say about termination?",
    "What was the total revenue in the third quarter?",
    "What is the capital requirement described in the report?",
    "What storage temperature does the food safety guide require?",
    "Which sensors does the weather station support?",
    "Which sponsors are listed in the annual report?",
    "What does the tutorial say about recursion?",
    "Summarize the chapter on error handling",
)

BANK: Mapping[str, tuple[str, ...]] = {
    "greeting": GREETING,
    "gratitude": GRATITUDE,
    "off_topic": OFF_TOPIC,
    "simplify": SIMPLIFY,
    "deepen": DEEPEN,
    "followup": FOLLOWUP,
    "question": QUESTION,
}
